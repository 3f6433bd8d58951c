package seckill.reservation.api;

import java.util.Optional;

import seckill.reservation.redis.StockBuckets;

/**
 * What an auditor (the drill's {@code InvariantCheck}) asks of this module's keys, so it spells no
 * key: what a SKU's buckets still hold and how many reservations they recorded, read straight from
 * Redis, never through the reserving code. The auditor brings its own client ({@link Reads}); this
 * module brings the keys. Also the name of a bucket's key, for tests that plant a fault from outside.
 */
public final class StockAudit {

    /** The three reads an audit needs, on a Redis client of the auditor's own (Jedis' names). */
    public interface Reads {
        String get(String key);

        long hlen(String key);

        boolean hexists(String key, String field);
    }

    private final Reads redis;

    private StockAudit(Reads redis) {
        this.redis = redis;
    }

    /** The audit over the Redis the auditor reads with {@code redis}. */
    public static StockAudit over(Reads redis) {
        return new StockAudit(redis);
    }

    /** Units left in the SKU's buckets; empty when every bucket's stock key is gone. */
    public Optional<Long> remaining(long activityId, long skuId, int buckets) {
        StockBuckets layout = StockBuckets.of(activityId, skuId, buckets);
        long sum = 0;
        boolean any = false;
        for (int b = 0; b < buckets; b++) {
            String value = redis.get(layout.stock(b));
            if (value != null) {
                any = true;
                sum += Long.parseLong(value);
            }
        }
        return any ? Optional.of(sum) : Optional.empty();
    }

    /** Reservations the SKU's buckets recorded (one field per buyer holding one). */
    public long reservations(long activityId, long skuId, int buckets) {
        StockBuckets layout = StockBuckets.of(activityId, skuId, buckets);
        long sum = 0;
        for (int b = 0; b < buckets; b++) {
            String key = layout.buyers(b);
            // minus the placeholder field that gives the hash its expiry
            sum += Math.max(0, redis.hlen(key) - (redis.hexists(key, "_") ? 1 : 0));
        }
        return sum;
    }

    /**
     * The key {@code sk:{<bucket's tag>}:<suffix>} of one bucket of a SKU split into {@code buckets}
     * ({@code rh:} for a rehearsal's activity, docs/rehearsal.md).
     */
    public static String bucketKey(long activityId, long skuId, int bucket, int buckets, String suffix) {
        return StockBuckets.of(activityId, skuId, buckets).key(bucket, suffix);
    }
}
