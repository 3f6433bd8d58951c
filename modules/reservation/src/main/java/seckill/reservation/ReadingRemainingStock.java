package seckill.reservation;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;
import seckill.reservation.api.RemainingStock;
import seckill.reservation.api.ReservationUnavailable;
import seckill.reservation.redis.StockBuckets;

/** Reads the stock counters of a SKU's buckets: what is still unreserved, in sum or per bucket. */
@ApplicationScoped
class ReadingRemainingStock implements RemainingStock {

    private final UnifiedJedis redis;

    @Inject
    ReadingRemainingStock(UnifiedJedis redis) {
        this.redis = redis;
    }

    @Override
    public Optional<Long> remaining(long activityId, long skuId, int buckets) {
        try {
            long sum = 0;
            boolean any = false;
            StockBuckets keys = StockBuckets.of(activityId, skuId, buckets);
            for (int bucket = 0; bucket < keys.count(); bucket++) {
                String value = redis.get(keys.stock(bucket));
                if (value != null) {
                    any = true;
                    sum += Math.max(0, Long.parseLong(value));
                }
            }
            return any ? Optional.of(sum) : Optional.empty();
        } catch (JedisException e) {
            throw new ReservationUnavailable("reading stock failed", e);
        }
    }

    @Override
    public Optional<List<Long>> remainingByBucket(long activityId, long skuId, int buckets) {
        try {
            StockBuckets keys = StockBuckets.of(activityId, skuId, buckets);
            List<Long> all = new ArrayList<>(keys.count());
            for (int bucket = 0; bucket < keys.count(); bucket++) {
                String value = redis.get(keys.stock(bucket));
                if (value == null) {
                    return Optional.empty();
                }
                all.add(Long.parseLong(value));
            }
            return Optional.of(all);
        } catch (JedisException e) {
            throw new ReservationUnavailable("reading stock failed", e);
        }
    }
}
