package seckill.admission;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * In-process sold-out marks. A mark only ever saves a Redis call: it is set after Redis itself said
 * "sold out", cleared when stock comes back, and it lapses after a short time on its own, so a
 * restock whose broadcast was lost or overtaken costs at most that long of wrong 410s.
 *
 * <p>For as long as a mark lives after a restock, no mark is set for that SKU: a "sold out" observed
 * before the refill (a reservation call answered just before it, a message from another instance
 * overtaken by the refill's) would otherwise raise a mark over units on sale. Answers that need the
 * mark then cost a Redis call, which gives the true answer. A mark can still be raised late only by
 * an observation held back for longer than that (an instance frozen between its answer and its
 * message).
 *
 * <p>Lifetimes are measured on the monotonic clock ({@code System.nanoTime}), never the wall clock: an
 * instance whose wall clock is moved (NTP stepping it, an operator, the chaos drill's {@code CLOCK_MOVE})
 * would otherwise keep a mark raised while its clock was ahead, or one its clock moved back under, for
 * the lifetime plus the jump (minutes of wrong 410s), and lose the restock guard when it moved forward.
 */
final class SoldOutFlags {

    /** A SKU's mark: flagged until, and when stock last came back (monotonic nanos; restockedAt null: never seen). */
    private record Mark(long flaggedUntil, Long restockedAt) {
    }

    // one map, changed by compute: a restock landing between a set's check and its write cannot be lost
    private final Map<String, Mark> marks = new ConcurrentHashMap<>();
    private final LongSupplier nanos;
    private final long lifetimeNanos;

    /** {@code nanos}: a monotonic clock ({@code System::nanoTime}; compared by difference only). */
    SoldOutFlags(LongSupplier nanos, Duration lifetime) {
        this.nanos = nanos;
        this.lifetimeNanos = lifetime.toNanos();
    }

    boolean isSet(long activityId, long skuId) {
        Mark mark = marks.get(key(activityId, skuId));
        return mark != null && mark.flaggedUntil() - nanos.getAsLong() > 0;
    }

    void set(long activityId, long skuId) {
        long now = nanos.getAsLong();
        marks.compute(key(activityId, skuId), (key, mark) -> {
            if (mark != null && mark.restockedAt() != null && now - mark.restockedAt() < lifetimeNanos) {
                return mark;
            }
            return new Mark(now + lifetimeNanos, null);
        });
    }

    void clear(long activityId, long skuId) {
        long now = nanos.getAsLong();
        // flagged until now: lapsed (isSet compares strictly)
        marks.put(key(activityId, skuId), new Mark(now, now));
    }

    private static String key(long activityId, long skuId) {
        return activityId + ":" + skuId;
    }
}
