package seckill.admission;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * In-process sold-out marks. A mark only ever saves a Redis call: it is set after Redis itself said
 * "sold out", cleared when stock comes back, and it lapses after a short time on its own, so a
 * restock whose broadcast was lost or overtaken costs at most that long of wrong 410s.
 */
final class SoldOutFlags {

    private final Map<String, Long> flaggedUntil = new ConcurrentHashMap<>();
    private final Clock clock;
    private final long lifetimeMillis;

    SoldOutFlags(Clock clock, Duration lifetime) {
        this.clock = clock;
        this.lifetimeMillis = lifetime.toMillis();
    }

    boolean isSet(long activityId, long skuId) {
        Long until = flaggedUntil.get(key(activityId, skuId));
        return until != null && until > clock.millis();
    }

    void set(long activityId, long skuId) {
        flaggedUntil.put(key(activityId, skuId), clock.millis() + lifetimeMillis);
    }

    void clear(long activityId, long skuId) {
        flaggedUntil.remove(key(activityId, skuId));
    }

    private static String key(long activityId, long skuId) {
        return activityId + ":" + skuId;
    }
}
