package seckill.ledger;

import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.dbclient.DbClient;
import liquibase.Liquibase;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import seckill.dev.api.DevServers;
import seckill.ledger.api.LedgerSchema;
import seckill.ledger.api.catalogue.Activity;
import seckill.ledger.api.catalogue.NewActivity;
import seckill.ledger.sql.ActivityRows;

/**
 * The MariaDB the ledger module's tests run against, with the ledger's schema applied by its own
 * Liquibase changelog (the one the service applies, under the same path, so a database the service
 * migrates later finds it done): {@code SECKILL_DB_URL} with {@code SECKILL_DB_USER} and
 * {@code SECKILL_DB_PASSWORD} when set (as CI sets them), else the embedded MariaDB of the dev module.
 * Register it as a static {@code @RegisterExtension} field, like reservation's {@code TestRedis}: it
 * connects and migrates before the class's tests and closes after them. Use cases are built by their
 * constructors from {@link #db()}.
 */
public final class TestLedger implements BeforeAllCallback, AfterAllCallback {

    private DbClient db;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        String url = System.getenv("SECKILL_DB_URL");
        String user = System.getenv().getOrDefault("SECKILL_DB_USER", "root");
        String password = System.getenv().getOrDefault("SECKILL_DB_PASSWORD", "");
        if (url == null || url.isBlank()) {
            url = new DevServers(true).jdbcUrl();
            user = "root";
            password = "";
        }
        migrate(url, user, password);
        Map<String, String> settings = new HashMap<>();
        settings.put("source", "jdbc");
        settings.put("connection.url", url);
        settings.put("connection.username", user);
        settings.put("connection.password", password);
        settings.put("connection.poolName", "test-ledger");
        settings.put("connection.maximumPoolSize", "4");
        // as the service's pool: the ledger's locking reads rely on REPEATABLE READ's gap locks
        settings.put("connection.transactionIsolation", "TRANSACTION_REPEATABLE_READ");
        db = DbClient.create(Config.just(ConfigSources.create(settings)));
    }

    /** The ledger's database client: hand it to the use case under test. */
    public DbClient db() {
        return db;
    }

    /** Registers an activity in the catalogue's table, as the catalogue does, at the system clock's now. */
    public Activity register(NewActivity activity) {
        return new ActivityRows(db).insert(activity, Clock.systemUTC().instant());
    }

    /** A {@code SELECT COUNT(*) …} (or any single number) read from the ledger. */
    public long count(String sql, Object... parameters) {
        return db.execute().get(sql, parameters).map(r -> ((Number) r.column(1).get()).longValue()).orElseThrow();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (db != null) {
            db.close();
        }
    }

    private static void migrate(String url, String user, String password) throws Exception {
        for (String key : List.of("liquibase.showSummaryOutput", "liquibase.command.showSummaryOutput",
                "liquibase.command.update.showSummaryOutput")) {
            System.setProperty(key, "LOG");
        }
        Properties properties = new Properties();
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        // as the service: MariaDB 11's INFORMATION_SCHEMA.KEYWORDS is MySQL-only reading for Connector/J
        properties.setProperty("useInformationSchema", "false");
        try (Connection connection = DriverManager.getConnection(url, properties)) {
            var database = DatabaseFactory.getInstance().findCorrectDatabaseImplementation(new JdbcConnection(connection));
            try (Liquibase liquibase = new Liquibase(LedgerSchema.CHANGELOG,
                    new ClassLoaderResourceAccessor(TestLedger.class.getClassLoader()), database)) {
                liquibase.update("");
            }
        }
    }
}
