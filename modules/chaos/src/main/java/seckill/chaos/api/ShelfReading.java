package seckill.chaos.api;

import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * The one place the checker reads Redis: the units left on a SKU's shelf, summed over its buckets,
 * through the keys the reservation module documents ({@code sk:{<tag>}:stock}, the tag
 * {@code a<activity>:s<sku>:b<bucket>} spread over the cluster's slot ranges). The layout is spelled
 * out here rather than imported, so a change to it shows up as a checker failure, not as agreement.
 */
final class ShelfReading {

    private static final int SLOTS = 16384;

    private final UnifiedJedis redis;

    ShelfReading(UnifiedJedis redis) {
        this.redis = redis;
    }

    /** Units on the shelf; {@code -1} when none of the SKU's stock keys exists. */
    long units(long activityId, long skuId, int buckets) {
        long sum = 0;
        boolean any = false;
        for (int b = 0; b < buckets; b++) {
            String value = redis.get("sk:{" + tag("a" + activityId + ":s" + skuId + ":b" + b, b, buckets) + "}:stock");
            if (value != null) {
                any = true;
                sum += Long.parseLong(value);
            }
        }
        return any ? sum : -1;
    }

    /** The hash tag of part {@code part} of {@code parts}: the name, salted until its slot lies mid-range. */
    static String tag(String name, int part, int parts) {
        if (parts <= 1) {
            return name;
        }
        long low = (long) SLOTS * part / parts;
        long high = (long) SLOTS * (part + 1) / parts;
        long margin = (high - low) / 4;
        for (int salt = 0; ; salt++) {
            String candidate = salt == 0 ? name : name + "~" + salt;
            int slot = JedisClusterCRC16.getSlot("{" + candidate + "}");
            if (slot >= low + margin && slot < high - margin) {
                return candidate;
            }
        }
    }
}
