package seckill.admission;

import java.util.Optional;

import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.SetParams;
import seckill.admission.rules.WorkDifficulty;

/**
 * Remembers the difficulty each challenge was issued with (it rises with load, so the answer is judged
 * by what the client was asked, not by what is asked now) and checks a nonce against it: one key per
 * challenge, {@code sk:pow:{<challengeId>}}, living as long as the challenge. Kept apart from the
 * captcha, so an external {@link seckill.admission.api.CaptchaVerifier} gets the work in front of it too.
 */
final class ProofOfWork {

    /** What the nonce came to. */
    enum Verdict { PROVED, MISSING, WRONG, UNKNOWN_CHALLENGE }

    private final UnifiedJedis redis;
    private final long ttlSeconds;

    ProofOfWork(UnifiedJedis redis, long ttlSeconds) {
        this.redis = redis;
        this.ttlSeconds = ttlSeconds;
    }

    void stamp(long activityId, String challengeId, int bits) {
        redis.set(key(activityId, challengeId), Integer.toString(bits), SetParams.setParams().ex(ttlSeconds));
    }

    /**
     * Judges the nonce. A missing one leaves the challenge usable (the client may send it again with
     * the work done); any nonce uses the record up, right or wrong, like the captcha's answer.
     */
    Verdict check(long activityId, String challengeId, Optional<String> nonce) {
        if (challengeId == null || !challengeId.matches("[0-9A-Za-z_-]{1,64}")) {
            return Verdict.UNKNOWN_CHALLENGE;
        }
        if (nonce.isEmpty()) {
            String bits = redis.get(key(activityId, challengeId));
            if (bits == null) {
                return Verdict.UNKNOWN_CHALLENGE;
            }
            if (Integer.parseInt(bits) > 0) {
                return Verdict.MISSING;
            }
            redis.del(key(activityId, challengeId));
            return Verdict.PROVED;
        }
        String bits = redis.getDel(key(activityId, challengeId));
        if (bits == null) {
            return Verdict.UNKNOWN_CHALLENGE;
        }
        return WorkDifficulty.proves(challengeId, nonce.get(), Integer.parseInt(bits)) ? Verdict.PROVED : Verdict.WRONG;
    }

    /** In the world of the activity the challenge is for ({@code rh:pow:{…}} for a rehearsal's). */
    static String key(long activityId, String challengeId) {
        return seckill.redis.World.of(activityId).key("pow:{" + challengeId + "}");
    }
}
