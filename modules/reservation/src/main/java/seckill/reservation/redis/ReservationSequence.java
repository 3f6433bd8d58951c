package seckill.reservation.redis;

import java.time.Clock;
import java.time.Instant;

/**
 * Unique, roughly time-ordered 63-bit sequence numbers: 41 bits of milliseconds since 2025-01-01,
 * 10 bits of node id, 12 bits of counter. The node id is leased from Redis at start-up (see
 * {@code LeasingNodeIds}) so that instances rarely share one; the reservation scripts refuse a number
 * minted twice in a bucket, whatever the leases. {@code buyer_window.lua} reads the minting millisecond back
 * out of a buyer's reservation id (the epoch and the 22 bits below it, as constants of its own): a change
 * of this layout changes the buyers' windows too, and {@code BuyerWindowTest}, which mints through this
 * class, fails on it.
 */
public final class ReservationSequence {

    private static final long EPOCH = Instant.parse("2025-01-01T00:00:00Z").toEpochMilli();
    private static final int NODE_BITS = 10;
    private static final int COUNTER_BITS = 12;
    public static final int MAX_NODES = 1 << NODE_BITS;

    private final Clock clock;
    private final long node;
    private long lastMillis = -1;
    private long counter;

    public ReservationSequence(Clock clock, long node) {
        if (node < 0 || node >= MAX_NODES) {
            throw new IllegalArgumentException("node id out of range: " + node);
        }
        this.clock = clock;
        this.node = node;
    }

    /** The node id a sequence number was minted under. */
    public static long nodeOf(long sequence) {
        return (sequence >>> COUNTER_BITS) & (MAX_NODES - 1);
    }

    /** The instant a sequence number was minted (its milliseconds since the epoch above, on the minting instance's clock). */
    public static Instant mintedAt(long sequence) {
        return Instant.ofEpochMilli(EPOCH + (sequence >>> (NODE_BITS + COUNTER_BITS)));
    }

    public synchronized long next() {
        long now = Math.max(clock.millis() - EPOCH, lastMillis);
        if (now == lastMillis) {
            counter = (counter + 1) & ((1 << COUNTER_BITS) - 1);
            if (counter == 0) {
                // counter exhausted within this millisecond: borrow the next one rather than wait
                now = lastMillis + 1;
            }
        } else {
            counter = 0;
        }
        lastMillis = now;
        return (now << (NODE_BITS + COUNTER_BITS)) | (node << COUNTER_BITS) | counter;
    }
}
