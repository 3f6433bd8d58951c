package seckill.reservation.redis;

import java.util.List;

import redis.clients.jedis.UnifiedJedis;
import seckill.redis.RedisScript;
import seckill.redis.ReplicaAcks;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.RestockOutcome;

/**
 * Runs {@code refill.lua}: units back to the bucket once per reservation, optionally freeing the buyer,
 * acknowledged by the replicas a reservation needs ({@link ReplicaAcks}): a refill only this master
 * holds dies with it, so it is not done until they have it ({@link ReplicaAcks.Missing} otherwise).
 */
public final class RefillScript {

    private final RedisScript script = RedisScript.read(
            RefillScript.class.getResourceAsStream("refill.lua"), "refill.lua");

    public RestockOutcome refill(UnifiedJedis redis, StockBuckets buckets, ReservationId id, long userId, int quantity,
                                 boolean releaseBuyer, ReplicaAcks acks) {
        List<String> keys = List.of(buckets.stock(id.bucket()), buckets.buyers(id.bucket()), buckets.refilled(id.bucket()),
                buckets.refilledUnits(id.bucket()));
        Object reply = script.runAcknowledged(redis, keys, List.of(id.toString(), Long.toString(userId),
                Integer.toString(quantity), releaseBuyer ? "1" : "0"), acks);
        return RestockOutcome.valueOf(RedisScript.text(reply));
    }
}
