package seckill.reservation.redis;

import java.time.Instant;
import java.util.List;

import redis.clients.jedis.UnifiedJedis;
import seckill.redis.RedisScript;
import seckill.redis.ReplicaAcks;
import seckill.reservation.api.ReservationId;

/**
 * The steps of a reservation that crosses buckets, each atomic on its own slot: claim the buyer at
 * home, take units from a donor bucket, then settle the claim (final id, or release). A crash in
 * between leaves a pending claim, which blocks that buyer but never loses or doubles a unit. Each
 * step gives the same answer when a client retries it with the same arguments.
 */
public final class BucketScripts {

    public static final String PENDING = seckill.reservation.rules.DonorBuckets.PENDING;

    private final RedisScript claim = RedisScript.read(
            BucketScripts.class.getResourceAsStream("claim.lua"), "claim.lua");
    private final RedisScript take = RedisScript.read(
            BucketScripts.class.getResourceAsStream("take.lua"), "take.lua");
    private final RedisScript settle = RedisScript.read(
            BucketScripts.class.getResourceAsStream("settle_claim.lua"), "settle_claim.lua");
    private final RedisScript withdraw = RedisScript.read(
            BucketScripts.class.getResourceAsStream("withdraw_take.lua"), "withdraw_take.lua");

    /** Records a pending claim; returns the value already held for the buyer, or empty when claimed. */
    public String claim(UnifiedJedis redis, StockBuckets buckets, int home, long userId, String pendingValue) {
        return RedisScript.text(claim.run(redis, List.of(buckets.buyers(home)),
                List.of(Long.toString(userId), pendingValue)));
    }

    /** {verdict, value, remaining} as reserve.lua answers. */
    public List<String> take(UnifiedJedis redis, StockBuckets buckets, ReservationId id, long userId, int quantity,
                             String requestId, Instant reservedAt, ReplicaAcks acks) {
        List<?> reply = (List<?>) take.runAcknowledged(redis,
                List.of(buckets.stock(id.bucket()), buckets.events(id.bucket()), buckets.served(id.bucket())),
                List.of(Long.toString(userId), Integer.toString(quantity), id.toString(), requestId,
                        Long.toString(reservedAt.toEpochMilli()), Long.toString(id.activityId()),
                        Long.toString(id.skuId())), acks);
        return List.of(RedisScript.text(reply.get(0)), RedisScript.text(reply.get(1)), RedisScript.text(reply.get(2)));
    }

    /**
     * Whether the donor {@code id.bucket()} gave units under {@code id} to the buyer ({@code TAKEN}); if
     * not, the id is withdrawn there, so a take still on its way takes nothing ({@code WITHDRAWN}).
     * Either answer is acknowledged by {@code acks.replicas()} replicas of the donor's master, as a
     * reservation is ({@link ReplicaAcks.Missing} otherwise): a take found on the master alone is
     * still in doubt.
     */
    public String withdraw(UnifiedJedis redis, StockBuckets buckets, ReservationId id, long userId, ReplicaAcks acks) {
        return RedisScript.text(withdraw.runAcknowledged(redis,
                List.of(buckets.served(id.bucket()), buckets.stock(id.bucket())),
                List.of(id.toString(), Long.toString(userId)), acks));
    }

    /** Replaces the buyer's record if it still is {@code expected}; an empty {@code replacement} removes it. */
    public boolean settle(UnifiedJedis redis, StockBuckets buckets, int home, long userId, String expected,
                          String replacement) {
        return settle(redis, buckets, home, userId, expected, replacement, ReplicaAcks.NONE);
    }

    /** {@link #settle}, acknowledged by {@code acks.replicas()} replicas ({@link ReplicaAcks.Missing} otherwise). */
    public boolean settle(UnifiedJedis redis, StockBuckets buckets, int home, long userId, String expected,
                          String replacement, ReplicaAcks acks) {
        Object reply = settle.runAcknowledged(redis, List.of(buckets.buyers(home)),
                List.of(Long.toString(userId), expected, replacement), acks);
        return "1".equals(RedisScript.text(reply));
    }
}
