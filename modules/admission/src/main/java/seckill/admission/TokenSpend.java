package seckill.admission;

import java.util.List;

import redis.clients.jedis.UnifiedJedis;
import seckill.redis.RedisScript;

/**
 * Uses a purchase token up: the first purchase it is shown with (a SKU and the client's requestId) takes
 * it, atomically in Redis, for the rest of the token's life. That purchase's retries (a lost answer, a
 * 429, a halt) meet their own record and pass; a purchase of another SKU is refused. One key per token,
 * {@code sk:tok:{a<activity>:<tokenId>}}: a key of its own slot, so it works unchanged on a cluster.
 */
final class TokenSpend {

    private final RedisScript script = RedisScript.read(
            TokenSpend.class.getResourceAsStream("spend_token.lua"), "spend_token.lua");

    private final UnifiedJedis redis;

    TokenSpend(UnifiedJedis redis) {
        this.redis = redis;
    }

    /**
     * Spends the token on this purchase unless it went to another SKU already; whether the purchase may
     * go on. A purchase of the same SKU under another requestId passes too: the buyer can hold one
     * reservation per SKU only (the reservation script dedupes), so it can only meet that reservation.
     */
    boolean spend(long activityId, String tokenId, long skuId, String requestId, long ttlMillis) {
        String purchase = skuId + "|" + (requestId == null ? "" : requestId);
        String spentOn = (String) script.run(redis, List.of(key(activityId, tokenId)),
                List.of(purchase, Long.toString(Math.max(1_000, ttlMillis))));
        return spentOn.substring(0, spentOn.indexOf('|')).equals(Long.toString(skuId));
    }

    static String key(long activityId, String tokenId) {
        return "sk:tok:{a" + activityId + ":" + tokenId + "}";
    }
}
