package seckill.app.infra;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.logging.Logger;

import io.helidon.config.Config;
import io.helidon.microprofile.cdi.RuntimeStart;
import io.helidon.microprofile.server.ServerCdiExtension;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.spi.ProtocolConfig;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.Extension;
import seckill.app.http.HeaderDeadline;

import static jakarta.interceptor.Interceptor.Priority.PLATFORM_AFTER;

/**
 * What keeps slow and idle clients from taking the listener down (issue #36 item 3).
 * <ul>
 *   <li>Helidon ends a listener for good on any failed accept, "too many open files" included
 *   ({@code ServerListener.listen}, 4.1.7 and still 4.5.3), so accept must never meet that limit:
 *   {@code server.max-tcp-connections} caps the connections (Helidon stops accepting at the cap and
 *   lets the kernel's backlog wait), and {@link ConnectionCapSource} sizes it from the process' limit
 *   of open files unless it is set. An explicit cap that leaves too few files for the rest is
 *   warned about at start.</li>
 *   <li>The cap alone would let slow clients hold every place: a connection stuck inside its headers
 *   is closed by {@link HeaderDeadline} ({@code seckill.http.header-timeout-millis}); a silent or
 *   idle one by Helidon's own {@code server.idle-connection-timeout}.</li>
 * </ul>
 * Helidon MP offers no public way to add an HTTP/1 receive listener (the web server's builder is
 * package-private in {@code ServerCdiExtension} and the listeners are not configurable), so the
 * builder is reached reflectively, once, before the server is built; should a Helidon upgrade move it,
 * the start logs that the header deadline is not in force, and {@code SlowClientsTest} fails.
 */
public class ConnectionLimits implements Extension {

    private static final Logger LOG = Logger.getLogger(ConnectionLimits.class.getName());
    /** Files a running instance needs besides its clients' connections: jars, pools, logs, outbound calls. */
    static final long RESERVED_FILES = 256;

    private Config config;

    void configured(@Observes @RuntimeStart Config config) {
        this.config = config;
    }

    void beforeTheServerStarts(@Observes @Priority(PLATFORM_AFTER + 50) @Initialized(ApplicationScoped.class) Object event,
                               BeanManager beans) {
        if (config == null) {
            return;
        }
        Config serverConfig = config.get("server");
        warnAboutTheCap(serverConfig.get("max-tcp-connections").asInt().orElse(-1), FileLimit.max(), FileLimit.open());
        long headerMillis = config.get("seckill.http.header-timeout-millis").asLong().orElse(5_000L);
        if (headerMillis <= 0) {
            LOG.warning("seckill.http.header-timeout-millis is " + headerMillis + ": a connection may take as long "
                    + "as it likes over its request headers");
            return;
        }
        try {
            ServerCdiExtension server = beans.getExtension(ServerCdiExtension.class);
            Method builderOf = ServerCdiExtension.class.getDeclaredMethod("serverBuilder");
            builderOf.setAccessible(true);
            WebServerConfig.Builder builder = (WebServerConfig.Builder) builderOf.invoke(server);
            List<ProtocolConfig> protocols = new ArrayList<>(builder.protocols());
            protocols.removeIf(protocol -> protocol instanceof Http1Config);
            // named as Helidon names the one it would discover, so it replaces that one instead of
            // adding a second HTTP/1 selector (two make every connection wait for its first line
            // before Helidon counts it as a connection at all)
            protocols.add(Http1Config.builder()
                    .config(serverConfig.get("protocols").get("http_1_1"))
                    .name("http_1_1")
                    .addReceiveListener(new HeaderDeadline(Duration.ofMillis(headerMillis)))
                    .build());
            builder.protocols(protocols);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warning("HEADER DEADLINE NOT IN FORCE: could not add it to Helidon's HTTP/1 protocol (" + e
                    + "); a client may hold a connection open inside its request headers for as long as it likes");
        }
    }

    /** Warns when the cap leaves too few files for the rest of the process, or there is none. */
    static void warnAboutTheCap(int cap, OptionalLong maxFiles, OptionalLong openFiles) {
        if (maxFiles.isEmpty()) {
            return;
        }
        long spare = maxFiles.getAsLong() - openFiles.orElse(0) - RESERVED_FILES;
        if (cap < 0 || cap > spare) {
            LOG.warning("CONNECTION CAP ABOVE THE FILE LIMIT: server.max-tcp-connections is "
                    + (cap < 0 ? "unbounded" : cap) + " but this process may open " + maxFiles.getAsLong()
                    + " files (" + openFiles.orElse(0) + " open now): a flood of connections can exhaust them, and the "
                    + "web server then stops listening for good. Lower the cap below " + Math.max(spare, 0)
                    + " or raise the limit (ulimit -n)");
        } else {
            LOG.info("at most " + cap + " client connections (server.max-tcp-connections); this process may open "
                    + maxFiles.getAsLong() + " files, " + openFiles.orElse(0) + " open now");
        }
    }

    /** The process' limit of open files and how many are open, where the platform tells. */
    static final class FileLimit {

        private FileLimit() {
        }

        static OptionalLong max() {
            return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean unix
                    ? OptionalLong.of(unix.getMaxFileDescriptorCount()) : OptionalLong.empty();
        }

        static OptionalLong open() {
            return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean unix
                    ? OptionalLong.of(unix.getOpenFileDescriptorCount()) : OptionalLong.empty();
        }
    }
}
