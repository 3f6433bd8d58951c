package seckill.ledger;

import java.util.function.LongSupplier;

import org.eclipse.microprofile.config.Config;

/**
 * The hot switch {@code seckill.ordering.max-orders-per-second}: how many orders this instance's
 * workers may write per second now (0: no cap), so an operator can slow the ledger down mid-sale.
 */
@FunctionalInterface
interface PaceSwitch {

    /** How often {@link #inForce} reads the switch again, like the other hot switches. */
    long REREAD_NANOS = 500_000_000L;

    long maxOrdersPerSecond();

    /**
     * The switch as {@code config} holds it, read again at most twice a second on the caller's
     * thread; a bad value (a half-written switches file) keeps the previous cap.
     */
    static PaceSwitch inForce(Config config) {
        return inForce(() -> config.getOptionalValue("seckill.ordering.max-orders-per-second", Long.class).orElse(0L),
                System::nanoTime);
    }

    /** The switch read through {@code read}, again once {@link #REREAD_NANOS} passed on {@code nanos}. */
    static PaceSwitch inForce(LongSupplier read, LongSupplier nanos) {
        return new PaceSwitch() {
            private volatile boolean everRead;
            private volatile long readAt;
            private volatile long cap;

            @Override
            public long maxOrdersPerSecond() {
                long now = nanos.getAsLong();
                if (!everRead || now - readAt > REREAD_NANOS) {
                    try {
                        cap = Math.max(0, read.getAsLong());
                    } catch (RuntimeException badValue) {
                        // keeps the previous cap until the value is fixed
                    }
                    everRead = true;
                    readAt = now;
                }
                return cap;
            }
        };
    }
}
