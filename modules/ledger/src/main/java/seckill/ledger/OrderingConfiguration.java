package seckill.ledger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.Config;

/**
 * Makes the module's one {@link OrderingSettings} injectable, read from MicroProfile Config once, and
 * the {@link PaceSwitch}, read again while the service runs.
 */
@ApplicationScoped
class OrderingConfiguration {

    @Produces
    @Singleton
    OrderingSettings settings(Config config) {
        return OrderingSettings.from(config);
    }

    @Produces
    @Singleton
    PaceSwitch paceSwitch(Config config) {
        return PaceSwitch.inForce(config);
    }
}
