package seckill.system;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The service's clock in a test that must let time pass (a payment window, a sale's end): the wall
 * clock plus an offset the test moves forward, instead of sleeping. Added with
 * {@code @AddBean(MovableClock.class)}; it is an enabled alternative, so its clock replaces the
 * service's own for that test class only.
 */
@ApplicationScoped
@Alternative
@Priority(100)
public class MovableClock {

    private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

    @Produces
    @Singleton
    public Clock clock() {
        return new Moved(offset, ZoneOffset.UTC);
    }

    /** Moves the service's time forward by {@code step}. */
    public void advance(Duration step) {
        offset.accumulateAndGet(step, Duration::plus);
    }

    private static final class Moved extends Clock {

        private final AtomicReference<Duration> offset;
        private final ZoneId zone;

        Moved(AtomicReference<Duration> offset, ZoneId zone) {
            this.offset = offset;
            this.zone = zone;
        }

        @Override
        public ZoneId getZone() {
            return zone;
        }

        @Override
        public Clock withZone(ZoneId other) {
            return new Moved(offset, other);
        }

        @Override
        public Instant instant() {
            return Instant.now().plus(offset.get());
        }
    }
}
