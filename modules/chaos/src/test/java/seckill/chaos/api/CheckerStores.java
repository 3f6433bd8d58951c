package seckill.chaos.api;

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
 * ({@code <SECKILL_DB_URL's database>_checker}) with the ledger's schema from the ordering module's
 * changelog, and the Redis database SECKILL_REDIS_URI names.
 */
final class CheckerStores implements AutoCloseable {

    final Connection db;
    final RedisClient redis;

    private CheckerStores(Connection db, RedisClient redis) {
        this.db = db;
        this.redis = redis;
    }

    static CheckerStores open() throws Exception {
        String url = env("SECKILL_DB_URL", "jdbc:mysql://127.0.0.1:3306/seckill_hchaos");
        String user = env("SECKILL_DB_USER", "root");
        String password = env("SECKILL_DB_PASSWORD", "");
        String server = url.substring(0, url.lastIndexOf('/') + 1);
        String database = url.substring(url.lastIndexOf('/') + 1).replaceAll("\\?.*", "") + "_checker";
        try (Connection admin = DriverManager.getConnection(server, user, password);
             Statement s = admin.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + database);
            s.execute("CREATE DATABASE " + database);
        }
        Connection db = DriverManager.getConnection(server + database, user, password);
        applyLedgerSchema(db);
        return new CheckerStores(db, RedisClient.create(java.net.URI.create(env("SECKILL_REDIS_URI",
                "redis://127.0.0.1:6379/9"))));
    }

    /**
     * The ordering module's changelog, statement by statement, minus the unique key on (activity,
     * buyer, SKU): the checker must see a double order even where the schema would have refused it.
     */
    private static void applyLedgerSchema(Connection db) throws Exception {
        String changelog = Files.readString(Path.of("../ordering/src/main/resources/seckill/ordering/changelog.sql"),
                StandardCharsets.UTF_8);
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
}
