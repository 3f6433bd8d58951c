package seckill.queue;

import java.time.Clock;
import java.util.SplittableRandom;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.Config;

/** Makes the module's settings, randomness and signer injectable, read from MicroProfile Config once. */
@ApplicationScoped
class QueueConfiguration {

    @Produces
    @Singleton
    QueueSettings settings(Config config, Clock clock) {
        return QueueSettings.from(config, clock);
    }

    @Produces
    @Singleton
    QueueRandomness randomness(QueueSettings settings) {
        return new QueueRandomness(settings.shuffleSeed()
                .<java.util.random.RandomGenerator>map(SplittableRandom::new)
                .orElseGet(java.security.SecureRandom::new));
    }

    @Produces
    @Singleton
    PassSigner signer(QueueSettings settings) {
        return settings.passKeys().map(PassSigner::new).orElseGet(PassSigner::unconfigured);
    }
}
