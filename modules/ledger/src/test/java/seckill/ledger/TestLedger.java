package seckill.ledger;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
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
import seckill.redis.World;

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

    private final boolean shadow;
    private boolean settlementTables;
    private DbClient db;
    private String url;
    private Properties credentials;

    public TestLedger() {
        this(false);
    }

    private TestLedger(boolean shadow) {
        this.shadow = shadow;
    }

    /**
     * The shadow ledger of rehearsals beside it (docs/rehearsal.md): the database named as the real one with
     * {@code _rehearsal} after it, on the same server, created when missing, migrated by the same changelog,
     * its activity ids from {@link World#REHEARSAL_IDS_FROM} (as the service prepares it).
     */
    public static TestLedger shadow() {
        return new TestLedger(true);
    }

    /**
     * Settlement's tables too (seckill_payment, which the ledger's payment transaction writes): its changelog
     * read from the settlement module's sources under the path the service applies it by, so a database the
     * service migrates later finds it done (the ledger cannot depend on settlement).
     */
    public TestLedger withSettlementTables() {
        settlementTables = true;
        return this;
    }

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
        if (shadow) {
            url = shadowOf(url, user, password);
        }
        migrate(url, user, password);
        if (settlementTables) {
            migrate(url, user, password, "seckill/settlement/changelog.sql",
                    new liquibase.resource.DirectoryResourceAccessor(java.nio.file.Path.of("../settlement/src/main/resources")));
        }
        if (shadow) {
            try (Connection c = DriverManager.getConnection(url, user, password); Statement s = c.createStatement();
                 ResultSet highest = s.executeQuery("SELECT COALESCE(MAX(id), 0) FROM seckill_activity")) {
                highest.next();
                if (highest.getLong(1) < World.REHEARSAL_IDS_FROM) {
                    s.execute("ALTER TABLE seckill_activity AUTO_INCREMENT = " + World.REHEARSAL_IDS_FROM);
                }
            }
        }
        this.url = url;
        credentials = new Properties();
        credentials.setProperty("user", user);
        credentials.setProperty("password", password);
        Map<String, String> settings = new HashMap<>();
        settings.put("source", "jdbc");
        settings.put("connection.url", url);
        settings.put("connection.username", user);
        settings.put("connection.password", password);
        settings.put("connection.poolName", shadow ? "test-shadow-ledger" : "test-ledger");
        settings.put("connection.maximumPoolSize", "4");
        // as the service's pool: the ledger's locking reads rely on REPEATABLE READ's gap locks
        settings.put("connection.transactionIsolation", "TRANSACTION_REPEATABLE_READ");
        db = DbClient.create(Config.just(ConfigSources.create(settings)));
    }

    /** The ledger's database client: hand it to the use case under test. */
    public DbClient db() {
        return db;
    }

    /**
     * A connection of its own, outside the pool and the code under test: for a test that plays another
     * client of the database (holding locks from outside). The caller closes it.
     */
    public Connection connect() throws java.sql.SQLException {
        return DriverManager.getConnection(url, credentials);
    }

    /** Registers an activity in the catalogue's table, as the catalogue does, at the system clock's now. */
    public Activity register(NewActivity activity) {
        return new ActivityRows(db, shadow ? World.REHEARSAL : World.REAL).insert(activity, Clock.systemUTC().instant());
    }

    /** {@code jdbc:…/<db>_rehearsal…}, the database created when missing (through a connection to {@code <db>}). */
    private static String shadowOf(String url, String user, String password) throws java.sql.SQLException {
        int slash = url.indexOf('/', url.indexOf("//") + 2);
        int query = url.indexOf('?', slash);
        String name = url.substring(slash + 1, query < 0 ? url.length() : query) + "_rehearsal";
        try (Connection c = DriverManager.getConnection(url, user, password); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE IF NOT EXISTS " + name);
        }
        return url.substring(0, slash + 1) + name + (query < 0 ? "" : url.substring(query));
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
        migrate(url, user, password, LedgerSchema.CHANGELOG, new ClassLoaderResourceAccessor(TestLedger.class.getClassLoader()));
    }

    private static void migrate(String url, String user, String password, String changelog,
                                liquibase.resource.ResourceAccessor resources) throws Exception {
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
            try (Liquibase liquibase = new Liquibase(changelog, resources, database)) {
                liquibase.update("");
            }
        }
    }
}
