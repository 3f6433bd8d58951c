package seckill.admission;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

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
 */
final class SoldOutFlags {

    /** A SKU's mark: flagged until, and when stock last came back (0: never seen). */
    private record Mark(long flaggedUntil, long restockedAt) {
    }

    // one map, changed by compute: a restock landing between a set's check and its write cannot be lost
    private final Map<String, Mark> marks = new ConcurrentHashMap<>();
    private final Clock clock;
    private final long lifetimeMillis;

    SoldOutFlags(Clock clock, Duration lifetime) {
        this.clock = clock;
        this.lifetimeMillis = lifetime.toMillis();
    }

    boolean isSet(long activityId, long skuId) {
        Mark mark = marks.get(key(activityId, skuId));
        return mark != null && mark.flaggedUntil() > clock.millis();
    }

    void set(long activityId, long skuId) {
        long now = clock.millis();
        marks.compute(key(activityId, skuId), (key, mark) -> {
            if (mark != null && now - mark.restockedAt() < lifetimeMillis) {
                return mark;
            }
            return new Mark(now + lifetimeMillis, 0);
        });
    }

    void clear(long activityId, long skuId) {
        long now = clock.millis();
        marks.put(key(activityId, skuId), new Mark(0, now));
    }

    private static String key(long activityId, long skuId) {
        return activityId + ":" + skuId;
    }
}
