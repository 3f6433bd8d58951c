package seckill.system;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.dbclient.DbClient;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import seckill.drill.api.TcpProxy;
import seckill.dev.api.DevServers;

/**
 * Puts the service's database behind a {@link TcpProxy} for one test class, so a test can cut the
 * service's connections from outside. Register it as a static {@code @RegisterExtension} field: it
 * starts when the class is initialised, before {@code @HelidonTest} starts the service, and points
 * {@code seckill.db.url} (a system property, above the environment) at the proxy.
 */
public final class DatabaseBehindProxy implements AfterAllCallback {

    private final TcpProxy proxy;
    private final DevServers embedded;
    private final String directUrl;
    private DbClient direct;

    public DatabaseBehindProxy() {
        String configured = System.getenv("SECKILL_DB_URL");
        if (configured == null || configured.isBlank()) {
            // no database configured: the embedded one, as the service itself would start
            embedded = new DevServers(true);
            configured = embedded.jdbcUrl();
        } else {
            embedded = null;
        }
        directUrl = configured;
        proxy = TcpProxy.forJdbcUrl(configured);
        System.setProperty("seckill.db.url", proxy.route(configured));
    }

    public TcpProxy proxy() {
        return proxy;
    }

    /** A client of the database itself, not through the proxy: the test reads its verdicts here. */
    public synchronized DbClient direct() {
        if (direct == null) {
            Map<String, String> settings = new HashMap<>();
            settings.put("source", "jdbc");
            settings.put("connection.url", directUrl);
            settings.put("connection.username", Optional.ofNullable(System.getenv("SECKILL_DB_USER")).orElse("root"));
            settings.put("connection.password", Optional.ofNullable(System.getenv("SECKILL_DB_PASSWORD")).orElse(""));
            settings.put("connection.poolName", "verifier");
            settings.put("connection.maximumPoolSize", "2");
            direct = DbClient.create(Config.just(ConfigSources.create(settings)));
        }
        return direct;
    }

    @Override
    public void afterAll(ExtensionContext context) {
        // the service of this class stops after this callback: let its connections through to the end
        proxy.restore();
        System.clearProperty("seckill.db.url");
        if (direct != null) {
            direct.close();
        }
    }
}
