package seckill.admission;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * Buyers Redis has just throttled, remembered on this instance until their window ends, so a buyer
 * who keeps clicking is answered 429 from memory instead of costing a Redis call per click. It only
 * ever repeats Redis' own verdict for the rest of that verdict's window. Bounded: under a flood of
 * distinct buyers the least useful entries are evicted one by one (forgetting costs a Redis call,
 * never a wrong answer), never the whole memory at peak.
 */
final class RecentlyThrottled {

    private static final int MAX_ENTRIES = 200_000;

    private final Cache<String, Long> until = Caffeine.newBuilder().maximumSize(MAX_ENTRIES).build();

    /** Milliseconds the buyer stays throttled, or 0. */
    long remaining(long activityId, long skuId, long userId, long nowMillis) {
        String key = activityId + ":" + skuId + ":" + userId;
        Long end = until.getIfPresent(key);
        if (end == null) {
            return 0;
        }
        if (end <= nowMillis) {
            until.asMap().remove(key, end);
            return 0;
        }
        return end - nowMillis;
    }

    void remember(long activityId, long skuId, long userId, long untilMillis) {
        until.put(activityId + ":" + skuId + ":" + userId, untilMillis);
    }
}
