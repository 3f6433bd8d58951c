package seckill.admission;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;

import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * Per-buyer and global purchase-rate limits kept in Redis, so every instance behind the load
 * balancer counts against the same numbers. One script call judges both.
 */
final class RateLimits {

    /** The verdict: which limit (if any) stopped the attempt, the buyer's count and when to retry. */
    record Verdict(String limit, long count, long retryAfterMillis, long buyerLimit) {
        boolean admitted() {
            return "OK".equals(limit);
        }
    }

    private final UnifiedJedis redis;
    private final Clock clock;
    private final String source;
    private volatile String sha;

    RateLimits(UnifiedJedis redis, Clock clock) {
        this.redis = redis;
        this.clock = clock;
        try (InputStream in = RateLimits.class.getResourceAsStream("throttle.lua")) {
            this.source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException | NullPointerException e) {
            throw new IllegalStateException("throttle.lua missing beside " + RateLimits.class.getName(), e);
        }
    }

    Verdict check(long activityId, long userId, long buyerLimit, long windowMillis, long globalPerSecond) {
        long now = clock.millis();
        String tag = "{a" + activityId + "}";
        List<String> keys = List.of("sk:" + tag + ":rl:u" + userId, "sk:" + tag + ":rl:g" + (now / 1000));
        List<String> args = List.of(Long.toString(buyerLimit), Long.toString(windowMillis),
                Long.toString(globalPerSecond), Long.toString(1000 - now % 1000));
        List<?> reply = (List<?>) call(keys, args);
        return new Verdict(String.valueOf(reply.get(0)), ((Number) reply.get(1)).longValue(),
                Math.max(0, ((Number) reply.get(2)).longValue()), buyerLimit);
    }

    private Object call(List<String> keys, List<String> args) {
        String current = sha;
        if (current == null) {
            current = sha = redis.scriptLoad(source, keys.getFirst());
        }
        try {
            return redis.evalsha(current, keys, args);
        } catch (JedisNoScriptException e) {
            sha = redis.scriptLoad(source, keys.getFirst());
            return redis.evalsha(sha, keys, args);
        }
    }
}
