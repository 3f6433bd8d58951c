package seckill.dev.embedded;

import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.BeforeShutdown;
import jakarta.enterprise.inject.spi.Extension;
import org.eclipse.microprofile.config.ConfigProvider;
import seckill.dev.api.DevServers;

/**
 * The dev servers in a CDI container: a {@link DevServers} handle can be injected (tests), and the
 * servers stop when the container shuts down. {@code BeforeShutdown} comes after every context is
 * destroyed, so the Redis client and the connection pool are closed by then and no pooled
 * connection fails against a server that is already gone. A test JVM that starts many containers
 * keeps them ({@code seckill.dev.keep-servers-for-jvm=true}): starting MariaDB takes seconds.
 */
public final class DevServersLifecycle implements Extension {

    private static final Logger LOG = Logger.getLogger(DevServersLifecycle.class.getName());

    void handle(@Observes AfterBeanDiscovery discovery) {
        discovery.addBean().beanClass(DevServers.class).types(DevServers.class, Object.class)
                .scope(Dependent.class).createWith(context -> new DevServers(true));
    }

    void stop(@Observes BeforeShutdown shutdown) {
        boolean keep;
        try {
            keep = ConfigProvider.getConfig().getOptionalValue("seckill.dev.keep-servers-for-jvm", Boolean.class)
                    .orElse(false);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "no config at shutdown; the dev servers stop", e);
            keep = false;
        }
        new DevServers(keep).stop();
    }
}
