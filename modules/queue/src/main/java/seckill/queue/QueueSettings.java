package seckill.queue;

import java.time.Clock;
import java.util.Optional;
import java.util.function.Supplier;

import org.eclipse.microprofile.config.Config;
import seckill.redis.ReplicaAcks;

/**
 * The queue module's settings read once (the hot switches are {@link QueueSwitches}): the keys passes and
 * tickets are signed with ({@code seckill.queue.pass-keys}, else the purchase tokens' keys), how long a pass
 * lasts, how often the line is moved, how many passes may be out at once beyond the units left (0: no cap
 * but the units), an optional seed for the pre-queue's draws (reproducible shuffles in tests and drills;
 * unset in service) and the replica acknowledgements a write of the line waits for (as reservations do).
 */
record QueueSettings(Optional<String> passKeys, long passSeconds, long tickMillis, long maxPassesOut,
                     Optional<Long> shuffleSeed, Supplier<ReplicaAcks> acksInForce) {

    static QueueSettings from(Config config, Clock clock) {
        Optional<String> keys = config.getOptionalValue("seckill.queue.pass-keys", String.class)
                .or(() -> config.getOptionalValue("seckill.admission.token-keys", String.class))
                .filter(k -> !k.isBlank());
        return new QueueSettings(keys,
                Math.max(1, config.getOptionalValue("seckill.queue.pass-seconds", Long.class).orElse(30L)),
                Math.max(10, config.getOptionalValue("seckill.queue.tick-millis", Long.class).orElse(100L)),
                Math.max(0, config.getOptionalValue("seckill.queue.max-passes-out", Long.class).orElse(0L)),
                config.getOptionalValue("seckill.queue.shuffle-seed", Long.class),
                ReplicaAcks.inForce(config, clock));
    }
}
