package seckill.admission;

import java.util.List;
import java.util.function.Supplier;

import redis.clients.jedis.UnifiedJedis;
import seckill.redis.RedisScript;
import seckill.redis.ReplicaAcks;

/**
 * Uses a purchase token up: the first purchase it is shown with (a SKU and the client's requestId) takes
 * it, atomically in Redis, for the rest of the token's life. That purchase's retries (a lost answer, a
 * 429, a halt) meet their own record and pass; a purchase of another SKU is refused. One key per token,
 * {@code sk:tok:{a<activity>:<tokenId>}}: a key of its own slot, so it works unchanged on a cluster. The
 * spend waits for the replicas a reservation waits for ({@code seckill.redis.min-replica-acks}): a record
 * a failover lost would let the token buy another SKU. It lives until the token's expiry plus a margin,
 * set as an absolute time, so an instance whose clock runs ahead does not end it early for the others.
 */
final class TokenSpend {

    private final RedisScript script = RedisScript.read(
            TokenSpend.class.getResourceAsStream("spend_token.lua"), "spend_token.lua");

    /** Instances' clocks may differ by this much: the record outlives the token's own expiry by it. */
    static final long SKEW_MARGIN_MILLIS = 60_000;

    private final UnifiedJedis redis;
    private final Supplier<ReplicaAcks> acks;

    TokenSpend(UnifiedJedis redis, Supplier<ReplicaAcks> acks) {
        this.redis = redis;
        this.acks = acks;
    }

    /**
     * Spends the token on this purchase unless it went to another SKU already; whether the purchase may
     * go on. A purchase of the same SKU under another requestId passes too: the buyer can hold one
     * reservation per SKU only (the reservation script dedupes), so it can only meet that reservation.
     *
     * @throws ReplicaAcks.Missing when too few replicas acknowledged the spend in time (in doubt)
     */
    boolean spend(long activityId, String tokenId, long skuId, String requestId, long tokenExpiresEpochMillis) {
        String purchase = skuId + "|" + (requestId == null ? "" : requestId);
        String spentOn = RedisScript.text(script.runAcknowledged(redis, List.of(key(activityId, tokenId)),
                List.of(purchase, Long.toString(tokenExpiresEpochMillis + SKEW_MARGIN_MILLIS)), acks.get()));
        return spentOn.substring(0, spentOn.indexOf('|')).equals(Long.toString(skuId));
    }

    static String key(long activityId, String tokenId) {
        return seckill.redis.World.of(activityId).key("tok:{a" + activityId + ":" + tokenId + "}");
    }
}
