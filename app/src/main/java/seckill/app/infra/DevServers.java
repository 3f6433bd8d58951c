package seckill.app.infra;

import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Embedded real servers for the zero-setup default, started only when the operator configured no
 * store. One pair per JVM: a test JVM that starts many containers reuses them
 * ({@code seckill.dev.keep-servers-for-jvm=true}, set by the tests); otherwise each server stops
 * after the client that uses it is closed, so no pooled connection fails against a server that is
 * already gone. Their libraries are in {@code dev-libs/}, which a production image leaves out: this
 * bean names none of their types, so a service with real stores runs without them, and one without
 * stores and without {@code dev-libs/} says what is missing.
 */
@ApplicationScoped
public class DevServers {

    private static final Logger LOG = Logger.getLogger(DevServers.class.getName());
    static final String DATABASE = "seckill";

    // JVM-wide: started at most once however many CDI containers come and go
    private static EmbeddedServers servers;
    private static String redisUri;
    private static String jdbcUrl;

    private final boolean keepForJvm;

    @Inject
    public DevServers(@ConfigProperty(name = "seckill.dev.keep-servers-for-jvm", defaultValue = "false")
                      boolean keepForJvm) {
        this.keepForJvm = keepForJvm;
    }

    public String redisUri() {
        synchronized (DevServers.class) {
            if (redisUri == null) {
                try {
                    redisUri = servers().startRedis(keepForJvm);
                } catch (NoClassDefFoundError e) {
                    throw missingDevLibs(e);
                } catch (Exception e) {
                    throw new IllegalStateException("cannot start embedded Redis", e);
                }
                LOG.warning(() -> "DEV MODE: seckill.redis.uri is not set, started an EMBEDDED Redis at " + RedactedAddress.of(redisUri)
                        + " (data is lost on exit; configure seckill.redis.uri for anything real)");
            }
            return redisUri;
        }
    }

    public String jdbcUrl() {
        synchronized (DevServers.class) {
            if (jdbcUrl == null) {
                long started = System.nanoTime();
                try {
                    jdbcUrl = servers().startMariaDb(DATABASE);
                } catch (NoClassDefFoundError e) {
                    throw missingDevLibs(e);
                } catch (Exception e) {
                    throw new IllegalStateException("cannot start embedded MariaDB", e);
                }
                long millis = (System.nanoTime() - started) / 1_000_000;
                LOG.warning(() -> "DEV MODE: seckill.db.url is not set, started an EMBEDDED MariaDB at " + RedactedAddress.of(jdbcUrl)
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

    private static IllegalStateException missingDevLibs(NoClassDefFoundError e) {
        return new IllegalStateException("no Redis or database is configured, and the embedded dev servers are not "
                + "on the class path (dev-libs/ beside the jar): set seckill.redis.uri and seckill.db.url", e);
    }

    /** The Redis client is closed: the embedded Redis may stop now (never while a client could still call it). */
    public void redisClosed() {
        synchronized (DevServers.class) {
            if (!keepForJvm && servers != null && redisUri != null) {
                servers.stopRedis();
                redisUri = null;
            }
        }
    }

    /** The connection pool is closed: the embedded MariaDB may stop now, with no connection left to fail. */
    public void databaseClosed() {
        synchronized (DevServers.class) {
            if (!keepForJvm && servers != null && jdbcUrl != null) {
                servers.stopMariaDb();
                jdbcUrl = null;
            }
        }
    }

    /** Stops both servers at once (a caller that owns them outside CDI, like the drill). */
    public void stop() {
        synchronized (DevServers.class) {
            if (servers != null) {
                servers.stop();
                redisUri = null;
                jdbcUrl = null;
            }
        }
    }
}
