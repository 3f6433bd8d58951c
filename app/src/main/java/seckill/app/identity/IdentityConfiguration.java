package seckill.app.identity;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.Config;

/** Makes the one {@link IdentitySettings} injectable, read from MicroProfile Config once. */
@ApplicationScoped
class IdentityConfiguration {

    @Produces
    @Singleton
    IdentitySettings settings(Config config) {
        return IdentitySettings.from(config);
    }
}
