package seckill.settlement;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.Config;

/** Makes the module's one {@link SettlementSettings} injectable, read from MicroProfile Config once. */
@ApplicationScoped
class SettlementConfiguration {

    @Produces
    @Singleton
    SettlementSettings settings(Config config) {
        return SettlementSettings.from(config);
    }
}
