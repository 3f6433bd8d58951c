package seckill.admission;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import redis.clients.jedis.UnifiedJedis;
import seckill.redis.RedisScript;

/**
 * Limits how many captcha challenges one buyer and one address may ask for per minute, shared by
 * every instance through Redis: drawing a PNG and storing an answer costs more than refusing.
 */
@ApplicationScoped
class ChallengeThrottle {

    private static final long WINDOW_MILLIS = 60_000;

    private final RedisScript script = RedisScript.read(
            ChallengeThrottle.class.getResourceAsStream("challenge_limit.lua"), "challenge_limit.lua");

    private final UnifiedJedis redis;
    private final java.time.Clock clock;
    private final long perBuyer;
    private final long perAddress;

    @Inject
    ChallengeThrottle(UnifiedJedis redis, java.time.Clock clock, AdmissionSettings settings) {
        this(redis, clock, settings.challengesPerBuyerPerMinute(), settings.challengesPerAddressPerMinute());
    }

    ChallengeThrottle(UnifiedJedis redis, java.time.Clock clock, long perBuyer, long perAddress) {
        this.redis = redis;
        this.clock = clock;
        this.perBuyer = perBuyer;
        this.perAddress = perAddress;
    }

    /** For CDI's proxy. */
    ChallengeThrottle() {
        this(null, null, 0, 0);
    }

    /** A throttle this request ran into: which one, its limit and the seconds until it lets up. */
    record Refusal(String limit, long perMinute, long retryAfterSeconds) {
    }

    /** Counts this challenge for the buyer and the address; the first limit passed, if any. */
    Optional<Refusal> check(long activityId, long userId, String clientIp) {
        long millis = clock.millis();
        String window = Long.toString(millis / WINDOW_MILLIS);
        // a rehearsal's challenges count in its own world's keys, the address's too (docs/rehearsal.md)
        seckill.redis.World world = seckill.redis.World.of(activityId);
        Optional<Refusal> buyer = count(world.key("chal:{a" + activityId + ":u" + userId + "}:" + window), perBuyer, "BUYER");
        if (buyer.isPresent() || clientIp == null || clientIp.isEmpty()) {
            return buyer;
        }
        return count(world.key("chal:{ip:" + clientIp + "}:" + window), perAddress, "ADDRESS");
    }

    private Optional<Refusal> count(String key, long limit, String which) {
        List<?> reply = (List<?>) script.run(redis, List.of(key), List.of(Long.toString(limit),
                Long.toString(WINDOW_MILLIS)));
        if (((Long) reply.get(0)) == 1L) {
            return Optional.empty();
        }
        long retryMillis = Math.max(1, (Long) reply.get(1));
        return Optional.of(new Refusal(which, limit, (retryMillis + 999) / 1000));
    }
}
