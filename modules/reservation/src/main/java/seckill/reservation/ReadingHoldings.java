package seckill.reservation;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;
import seckill.reservation.api.Holdings;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.ReservationUnavailable;
import seckill.reservation.redis.StockBuckets;

/** Reads a buyer's record in their home bucket: which reservation, if any, Redis holds for them. */
@ApplicationScoped
class ReadingHoldings implements Holdings {

    private final UnifiedJedis redis;

    @Inject
    ReadingHoldings(UnifiedJedis redis) {
        this.redis = redis;
    }

    @Override
    public Optional<ReservationId> heldFor(long activityId, long skuId, int buckets, long userId) {
        try {
            int home = StockBuckets.homeBucket(userId, Math.max(1, buckets));
            String held = redis.hget(StockBuckets.of(activityId, skuId, buckets).buyers(home), Long.toString(userId));
            // a pending claim (or nothing) parses to empty: the buyer holds nothing they could be shown yet
            return held == null ? Optional.empty() : ReservationId.parse(held);
        } catch (JedisException e) {
            throw new ReservationUnavailable("reading buyer failed", e);
        }
    }

    @Override
    public boolean isHeldBy(ReservationId id, long userId, int buckets) {
        try {
            int home = StockBuckets.homeBucket(userId, Math.max(1, buckets));
            String held = redis.hget(StockBuckets.of(id.activityId(), id.skuId(), buckets).buyers(home), Long.toString(userId));
            return id.toString().equals(held);
        } catch (JedisException e) {
            throw new ReservationUnavailable("reading buyer failed", e);
        }
    }
}
