package seckill.ordering;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.Config;

/** Makes the module's one {@link OrderingSettings} injectable, read from MicroProfile Config once. */
@ApplicationScoped
class OrderingConfiguration {

    @Produces
    @Singleton
    OrderingSettings settings(Config config) {
        return OrderingSettings.from(config);
    }
}
