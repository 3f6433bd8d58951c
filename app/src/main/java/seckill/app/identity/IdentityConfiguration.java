package seckill.app.identity;

import java.time.Clock;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.Config;

/** Makes the one {@link IdentitySettings} injectable, read from MicroProfile Config once, and the {@link RehearsalMarks} it keys. */
@ApplicationScoped
class IdentityConfiguration {

    @Produces
    @Singleton
    IdentitySettings settings(Config config) {
        return IdentitySettings.from(config);
    }

    /** The edge's rehearsal mark, checked under {@code seckill.rehearsal.edge-key} within the gateway's window. */
    @Produces
    @Singleton
    RehearsalMarks rehearsalMarks(IdentitySettings settings, Clock clock) {
        return new RehearsalMarks(settings.rehearsalEdgeKey(), settings.gatewayWindow(), clock);
    }
}
