package seckill.admission;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * In-process sold-out marks. A mark only ever saves a Redis call: it is set after Redis itself said
 * "sold out", and cleared when stock comes back.
 */
final class SoldOutFlags {

    private final Set<String> flagged = ConcurrentHashMap.newKeySet();

    boolean isSet(long activityId, long skuId) {
        return flagged.contains(key(activityId, skuId));
    }

    void set(long activityId, long skuId) {
        flagged.add(key(activityId, skuId));
    }

    void clear(long activityId, long skuId) {
        flagged.remove(key(activityId, skuId));
    }

    private static String key(long activityId, long skuId) {
        return activityId + ":" + skuId;
    }
}
