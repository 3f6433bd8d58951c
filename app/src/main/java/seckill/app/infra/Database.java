package seckill.app.infra;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Optional;
import java.util.logging.Logger;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.dbclient.DbClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import liquibase.Liquibase;
import liquibase.Scope;
import liquibase.ui.LoggerUIService;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import seckill.ledger.api.LedgerSchema;
import seckill.ledger.wiring.ShadowLedger;
import seckill.settlement.api.SettlementSchema;

/**
 * Produces the Helidon {@link DbClient} from {@code seckill.db.*} (with no URL configured, the dev
 * module, when it is on the class path, supplies its embedded MariaDB's). Every module's Liquibase
 * changelog is applied first, so whoever gets the client gets the schema with it.
 */
@ApplicationScoped
class Database {

    private static final Logger LOG = Logger.getLogger(Database.class.getName());
    private static final List<String> CHANGELOGS = List.of(LedgerSchema.CHANGELOG, SettlementSchema.CHANGELOG);

    private final Optional<String> url;
    private final Optional<String> user;

    // optional because MP Config reads an empty value as missing, and a dev database may have none
    private final Optional<String> password;
    private final int poolSize;
    private final Optional<String> rehearsalUrl;
    private final Optional<String> rehearsalUser;
    private final Optional<String> rehearsalPassword;
    private final int rehearsalPoolSize;

    @Inject
    Database(@ConfigProperty(name = "seckill.db.url") Optional<String> url,
             @ConfigProperty(name = "seckill.db.user") Optional<String> user,
             @ConfigProperty(name = "seckill.db.password") Optional<String> password,
             @ConfigProperty(name = "seckill.db.pool-size", defaultValue = "10") int poolSize,
             @ConfigProperty(name = "seckill.rehearsal.db.url") Optional<String> rehearsalUrl,
             @ConfigProperty(name = "seckill.rehearsal.db.user") Optional<String> rehearsalUser,
             @ConfigProperty(name = "seckill.rehearsal.db.password") Optional<String> rehearsalPassword,
             @ConfigProperty(name = "seckill.rehearsal.db.pool-size", defaultValue = "4") int rehearsalPoolSize) {
        this.url = url;
        this.user = user;
        this.password = password;
        this.poolSize = poolSize;
        this.rehearsalUrl = rehearsalUrl;
        this.rehearsalUser = rehearsalUser;
        this.rehearsalPassword = rehearsalPassword;
        this.rehearsalPoolSize = rehearsalPoolSize;
    }

    @Produces
    @Singleton
    DbClient dbClient() {
        String jdbcUrl = withStatementCache(url.filter(u -> !u.isBlank()).orElseThrow(() -> notConfigured("seckill.db.url")));
        String username = user.orElse("root");
        String secret = password.orElse("");
        migrate(jdbcUrl, username, secret);
        RehearsalLedger.checkRealIds(jdbcUrl, username, secret);
        Optional<String> shadow = rehearsalUrl.filter(u -> !u.isBlank());
        if (shadow.isPresent()) {
            // the shadow tables (issue #34, docs/rehearsal.md): a database of their own, migrated by the same
            // changelogs; user and password default to the real ledger's
            String shadowUrl = withStatementCache(shadow.get());
            String shadowUser = rehearsalUser.orElse(username);
            String shadowSecret = rehearsalPassword.orElse(secret);
            migrate(shadowUrl, shadowUser, shadowSecret);
            RehearsalLedger.prepare(jdbcUrl, username, secret, shadowUrl, shadowUser, shadowSecret);
            LOG.info(() -> "rehearsal ledger at " + RedactedAddress.of(shadowUrl));
        }
        LOG.info(() -> "database at " + RedactedAddress.of(jdbcUrl) + ", pool " + poolSize);
        return client(jdbcUrl, username, secret, "seckill", poolSize);
    }

    /**
     * The shadow ledger of rehearsals (issue #34, docs/rehearsal.md): a client of {@code seckill.rehearsal.db.url}
     * with a pool of its own ({@code seckill.rehearsal.db.pool-size}, 4), so a rehearsal cannot take the real
     * pool's connections; empty without that URL, and then nothing of the shadow world starts. Produced after
     * the real client, whose production migrated and checked the shadow database.
     */
    @Produces
    @Singleton
    @ShadowLedger
    Optional<DbClient> shadowLedger(DbClient migratedFirst) {
        Optional<String> shadow = rehearsalUrl.filter(u -> !u.isBlank());
        if (shadow.isEmpty()) {
            return Optional.empty();
        }
        String shadowUrl = withStatementCache(shadow.get());
        LOG.info(() -> "rehearsal ledger pool " + rehearsalPoolSize);
        return Optional.of(client(shadowUrl, rehearsalUser.orElse(user.orElse("root")),
                rehearsalPassword.orElse(password.orElse("")), "seckill-rehearsal", rehearsalPoolSize));
    }

    private static DbClient client(String jdbcUrl, String username, String secret, String poolName, int poolSize) {
        Map<String, String> settings = new HashMap<>();
        settings.put("source", "jdbc");
        settings.put("connection.url", jdbcUrl);
        settings.put("connection.username", username);
        settings.put("connection.password", secret);
        settings.put("connection.poolName", poolName);
        settings.put("connection.maximumPoolSize", Integer.toString(poolSize));
        settings.put("connection.minimumIdle", Integer.toString(Math.min(2, poolSize)));
        settings.put("connection.connectionTimeout", "3000");
        // the ledger's locking reads rely on gap locks (a dead letter and an order of the same
        // reservation wait for each other, OrderingSql.lockFailedReservations); READ COMMITTED, a common
        // server default on MySQL 8 installs, takes none, so the pool pins REPEATABLE READ
        settings.put("connection.transactionIsolation", "TRANSACTION_REPEATABLE_READ");
        return DbClient.create(Config.just(ConfigSources.create(settings)));
    }

    /**
     * The URL with Connector/J's statement cache and server-side prepared statements on, unless the
     * operator set those keys. The ordering workers send the same multi-row INSERT (a row per order,
     * eleven parameters a row) thousands of times. Without the cache the driver parses its text again
     * every time (in the purchase path's flame graph, QueryInfo and StringInspector were most of the
     * MySQL driver's share); without server-side statements the driver inlines every parameter into
     * the text and MariaDB parses the whole statement again for every batch: measured with the
     * settlement benchmark, server-side statements cut MariaDB's CPU for the same run by about 30 %
     * (docs/perf/README.md). A statement the server cannot prepare (more than 65,535 placeholders, a
     * large batch-size) is sent as text instead, by the driver's own fallback. The SQL limit is
     * raised so the batch statements fit in the cache.
     */
    static String withStatementCache(String jdbcUrl) {
        StringBuilder url = new StringBuilder(jdbcUrl);
        String[][] defaults = {{"cachePrepStmts", "true"}, {"prepStmtCacheSize", "250"}, {"prepStmtCacheSqlLimit", "65536"},
                {"useServerPrepStmts", "true"}};
        for (String[] setting : defaults) {
            if (!jdbcUrl.contains(setting[0] + "=")) {
                url.append(url.indexOf("?") < 0 ? '?' : '&').append(setting[0]).append('=').append(setting[1]);
            }
        }
        return url.toString();
    }

    void close(@Disposes DbClient db) {
        db.close();
    }

    void closeShadow(@Disposes @ShadowLedger Optional<DbClient> db) {
        db.ifPresent(DbClient::close);
    }

    /** A store with no address: configure it, or put the dev module ({@code dev-libs/}) on the class path. */
    static IllegalStateException notConfigured(String key) {
        return new IllegalStateException(key + " is not set, and the embedded dev servers are not on the class path "
                + "(dev-libs/ beside the jar): set seckill.redis.uri and seckill.db.url");
    }

    /** Builds the client, and so migrates the schema, at start-up: a broken database fails the start. */
    void migrateAtStartup(@Observes @Initialized(ApplicationScoped.class) Object ignored, DbClient db) {
        LOG.fine(() -> "database client ready: " + db.dbType());
    }

    static void migrate(String jdbcUrl, String username, String secret) {
        // Liquibase's update summary goes to the log, not to standard output
        for (String key : List.of("liquibase.showSummaryOutput", "liquibase.command.showSummaryOutput",
                "liquibase.command.update.showSummaryOutput")) {
            if (System.getProperty(key) == null) {
                System.setProperty(key, "LOG");
            }
        }
        // Liquibase closes its connection when done, so every changelog gets its own
        for (String changelog : CHANGELOGS) {
            Properties properties = new Properties();
            properties.setProperty("user", username);
            properties.setProperty("password", secret);
            // MariaDB 11 makes Connector/J read its keywords from INFORMATION_SCHEMA.KEYWORDS, a MySQL-only
            // table: Liquibase would log the failure with a stack trace; the classic metadata works on both
            properties.setProperty("useInformationSchema", "false");
            try (Connection connection = DriverManager.getConnection(jdbcUrl, properties)) {
                var database = DatabaseFactory.getInstance()
                        .findCorrectDatabaseImplementation(new JdbcConnection(connection));
                try (Liquibase liquibase = new Liquibase(changelog,
                        new ClassLoaderResourceAccessor(Database.class.getClassLoader()), database)) {
                    // Liquibase's report goes to the log, not to standard output (the drill prints its report there)
                    Scope.child(Map.of(Scope.Attr.ui.name(), new LoggerUIService()),
                            () -> liquibase.update(""));
                }
            } catch (SQLException e) {
                throw new IllegalStateException("cannot reach the database at " + RedactedAddress.of(jdbcUrl) + ": " + e.getMessage(), e);
            } catch (Exception e) {
                throw new IllegalStateException("schema migration " + changelog + " failed: " + e.getMessage(), e);
            }
        }
    }
}
