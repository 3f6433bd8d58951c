package seckill.dev.api;

import java.util.logging.Logger;

import seckill.dev.embedded.EmbeddedServers;

/**
 * Embedded real servers for the zero-setup default, started only when the operator configured no
 * store. One pair per JVM, however many handles and CDI containers come and go: the service gets
 * their addresses as configuration (the dev module's config source reads them from here), and tools
 * outside CDI (the drill, tests) ask a handle directly. The servers stop when a CDI container shuts
 * down, after its clients are closed (unless {@code seckill.dev.keep-servers-for-jvm=true}, set by
 * the tests), when a handle made with {@code keepForJvm=false} is {@link #stop() stopped}, or when
 * the JVM exits.
 */
public final class DevServers {

    private static final Logger LOG = Logger.getLogger(DevServers.class.getName());
    /** The name of the database the embedded MariaDB holds. */
    public static final String DATABASE = "seckill";
    /** The config source's name: a service's dev-mode check leaves this source out of its question. */
    public static final String CONFIG_SOURCE_NAME = "seckill-dev-stores";

    // JVM-wide: started at most once however many CDI containers come and go
    private static EmbeddedServers servers;
    private static String redisUri;
    private static String jdbcUrl;

    private final boolean keepForJvm;

    /** A handle; when {@code keepForJvm}, {@link #stop()} leaves the servers running until the JVM exits. */
    public DevServers(boolean keepForJvm) {
        this.keepForJvm = keepForJvm;
    }

    /** The embedded Redis's URI, starting it first if it is not running. */
    public String redisUri() {
        synchronized (DevServers.class) {
            if (redisUri == null) {
                try {
                    redisUri = servers().startRedis();
                } catch (Exception e) {
                    throw new IllegalStateException("cannot start embedded Redis", e);
                }
                LOG.warning(() -> "DEV MODE: seckill.redis.uri is not set, started an EMBEDDED Redis at " + redisUri
                        + " (data is lost on exit; configure seckill.redis.uri for anything real)");
            }
            return redisUri;
        }
    }

    /** The embedded MariaDB's JDBC URL (user root, no password), starting it first if it is not running. */
    public String jdbcUrl() {
        synchronized (DevServers.class) {
            if (jdbcUrl == null) {
                long started = System.nanoTime();
                try {
                    jdbcUrl = servers().startMariaDb(DATABASE);
                } catch (Exception e) {
                    throw new IllegalStateException("cannot start embedded MariaDB", e);
                }
                long millis = (System.nanoTime() - started) / 1_000_000;
                LOG.warning(() -> "DEV MODE: seckill.db.url is not set, started an EMBEDDED MariaDB at " + jdbcUrl
                        + " in " + millis + " ms (user root, no password, data is lost on exit; configure "
                        + "seckill.db.url for anything real)");
            }
            return jdbcUrl;
        }
    }

    private static EmbeddedServers servers() {
        if (servers == null) {
            servers = new EmbeddedServers();
        }
        return servers;
    }

    /** Stops both servers now, unless this handle keeps them for the JVM (never while a client could still call them). */
    public void stop() {
        if (keepForJvm) {
            return;
        }
        synchronized (DevServers.class) {
            if (servers != null) {
                servers.stop();
                redisUri = null;
                jdbcUrl = null;
            }
        }
    }
}
