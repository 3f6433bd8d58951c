package seckill.admission;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.Config;

/** Makes the module's one {@link AdmissionSettings} injectable, read from MicroProfile Config once. */
@ApplicationScoped
class AdmissionConfiguration {

    @Produces
    @Singleton
    AdmissionSettings settings(Config config, java.time.Clock clock) {
        return AdmissionSettings.from(config, clock);
    }

    @Produces
    @Singleton
    Randomness randomness() {
        return new Randomness(new java.security.SecureRandom());
    }
}
