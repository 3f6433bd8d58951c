package seckill.reservation.redis;

import java.util.List;

/**
 * The Redis key layout of a SKU's stock. Each bucket has its own hash tag
 * {@code {a<activity>:s<sku>:b<bucket>}}, so the three keys one reservation touches (stock, buyers,
 * events) always share a cluster slot, while different buckets can live on different shards.
 */
public final class StockBuckets {

    /** Sorted set of live event streams, scored by their expiry (epoch millis). */
    public static final String STREAM_REGISTRY = "sk:streams";

    private StockBuckets() {
    }

    public static String tag(long activityId, long skuId, int bucket) {
        return "{a" + activityId + ":s" + skuId + ":b" + bucket + "}";
    }

    public static String stock(long activityId, long skuId, int bucket) {
        return "sk:" + tag(activityId, skuId, bucket) + ":stock";
    }

    public static String buyers(long activityId, long skuId, int bucket) {
        return "sk:" + tag(activityId, skuId, bucket) + ":buyers";
    }

    public static String events(long activityId, long skuId, int bucket) {
        return "sk:" + tag(activityId, skuId, bucket) + ":events";
    }

    public static String refilled(long activityId, long skuId, int bucket) {
        return "sk:" + tag(activityId, skuId, bucket) + ":refilled";
    }

    public static String deadLetters(long activityId, long skuId, int bucket) {
        return "sk:" + tag(activityId, skuId, bucket) + ":dead";
    }

    /** The dead-letter stream beside an event stream. */
    public static String deadLettersOf(String eventStream) {
        return eventStream.substring(0, eventStream.length() - ":events".length()) + ":dead";
    }

    /** Keys of one bucket in the order the reservation and preheat scripts expect them. */
    public static List<String> bucketKeys(long activityId, long skuId, int bucket) {
        return List.of(stock(activityId, skuId, bucket), buyers(activityId, skuId, bucket), events(activityId, skuId, bucket));
    }

    /**
     * The bucket that holds a buyer's dedupe record. Fixed per buyer so that a second click always
     * lands where the first one was recorded.
     */
    public static int homeBucket(long userId, int buckets) {
        return (int) Math.floorMod(mix(userId), (long) buckets);
    }

    private static long mix(long value) {
        long z = value * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        return z ^ (z >>> 31);
    }
}
