package seckill.drill.api;

import java.net.URI;
import java.util.List;

import io.helidon.dbclient.DbClient;
import io.helidon.microprofile.server.Server;
import jakarta.enterprise.inject.spi.CDI;
import org.eclipse.microprofile.config.ConfigProvider;
import redis.clients.jedis.UnifiedJedis;
import seckill.dev.api.DevServers;
import seckill.ledger.api.OrderingSwitch;

/**
 * {@code java -jar seckill.jar drill ...}: starts the service in-process (or, with {@code --url},
 * only its stores' clients, workers off) and runs a {@link Drill}. Exit code 0 when every invariant
 * held, 1 when one failed, 2 on bad options.
 */
public final class DrillCommand {

    private DrillCommand() {
    }

    public static int run(String[] args) {
        DrillOptions options;
        try {
            options = DrillOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("drill: " + e.getMessage());
            System.err.println(DrillOptions.USAGE);
            return 2;
        }
        if (options.url().isPresent()) {
            var config = ConfigProvider.getConfig();
            if (config.getOptionalValue("seckill.redis.uri", String.class).isEmpty()
                    || config.getOptionalValue("seckill.db.url", String.class).isEmpty()) {
                System.err.println("drill: with --url, set seckill.redis.uri and seckill.db.url (SECKILL_REDIS_URI, "
                        + "SECKILL_DB_URL, ...) to the target's stores so the drill can verify them");
                return 2;
            }
            // this process only verifies; the target's own workers settle the sale
            System.setProperty("seckill.ordering.enabled", "false");
        }
        System.setProperty("server.port", "0");
        // the drill's own service must not take the management port of a deployment on this host (drill --url)
        if (System.getProperty("server.sockets.0.port") == null && System.getenv("SERVER_SOCKETS_0_PORT") == null) {
            System.setProperty("server.sockets.0.port", "0");
        }
        if (options.url().isEmpty()) {
            // simulated buyers solve no captcha: the in-process service of a drill sells without tokens
            System.setProperty("seckill.admission.token-required", "false");
        }
        options.adminToken().ifPresent(t -> System.setProperty("seckill.admin.token", t));
        DevServers embeddedDatabase = null;
        TcpProxy databaseProxy = null;
        if (options.url().isEmpty() && options.fault().filter("db-down"::equals).isPresent()) {
            // the fault cuts the in-process service's database connections: put its database behind a proxy
            String jdbcUrl = ConfigProvider.getConfig().getOptionalValue("seckill.db.url", String.class)
                    .filter(u -> !u.isBlank()).orElse(null);
            if (jdbcUrl == null) {
                embeddedDatabase = new DevServers(false);
                jdbcUrl = embeddedDatabase.jdbcUrl();
            }
            databaseProxy = TcpProxy.forJdbcUrl(jdbcUrl);
            System.setProperty("seckill.db.url", databaseProxy.route(jdbcUrl));
        }
        Server server = Server.builder().build().start();
        try {
            var cdi = CDI.current();
            URI base = URI.create(options.url().orElse("http://127.0.0.1:" + server.port()));
            String token = options.adminToken()
                    .or(() -> ConfigProvider.getConfig().getOptionalValue("seckill.admin.token", String.class))
                    .orElse(seckill.dev.api.DevSecrets.ADMIN_TOKEN);
            OrderingSwitch ordering = options.url().isPresent() ? null : cdi.select(OrderingSwitch.class).get();
            Drill drill = new Drill(options, base, token, cdi.select(DbClient.class).get(),
                    cdi.select(UnifiedJedis.class).get(), ordering, System.out, databaseProxy);
            List<String> violations = drill.run();
            return violations.isEmpty() ? 0 : 1;
        } catch (Exception e) {
            System.err.println("drill: failed: " + e);
            e.printStackTrace();
            return 1;
        } finally {
            server.stop();
            if (databaseProxy != null) {
                databaseProxy.close();
            }
            if (embeddedDatabase != null) {
                embeddedDatabase.stop();
            }
        }
    }
}
