package seckill.reservation;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.Config;

/** Makes the module's one {@link ReservationSettings} injectable, read from MicroProfile Config once. */
@ApplicationScoped
class ReservationConfiguration {

    @Produces
    @Singleton
    ReservationSettings settings(Config config, java.time.Clock clock) {
        return ReservationSettings.from(config, clock);
    }
}
