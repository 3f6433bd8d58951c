package seckill.admission;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Buyers Redis has just throttled, remembered on this instance until their window ends, so a buyer
 * who keeps clicking is answered 429 from memory instead of costing a Redis call per click. It only
 * ever repeats Redis' own verdict for the rest of that verdict's window.
 */
final class RecentlyThrottled {

    private static final int MAX_ENTRIES = 200_000;

    private final Map<String, Long> until = new ConcurrentHashMap<>();

    /** Milliseconds the buyer stays throttled, or 0. */
    long remaining(long activityId, long userId, long nowMillis) {
        Long end = until.get(activityId + ":" + userId);
        if (end == null) {
            return 0;
        }
        if (end <= nowMillis) {
            until.remove(activityId + ":" + userId, end);
            return 0;
        }
        return end - nowMillis;
    }

    void remember(long activityId, long userId, long untilMillis) {
        if (until.size() >= MAX_ENTRIES) {
            // a flood of distinct buyers: forgetting only costs Redis calls, never a wrong answer
            until.clear();
        }
        until.put(activityId + ":" + userId, untilMillis);
    }
}
