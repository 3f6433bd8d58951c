package seckill.admission;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.random.RandomGenerator;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.SetParams;
import seckill.admission.api.CaptchaChallenge;
import seckill.admission.api.CaptchaVerifier;

/**
 * The built-in captcha: a PNG drawn server-side; the answer lives in Redis for a short time under
 * the challenge id and is taken out (GETDEL) by the first verification, right or wrong.
 */
@ApplicationScoped
@Named("image")
class ImageCaptcha implements CaptchaVerifier {

    private static final int LENGTH = 5;

    private final UnifiedJedis redis;
    private final Clock clock;
    private final long ttlSeconds;

    @Inject
    ImageCaptcha(UnifiedJedis redis,
                 Clock clock,
                 Randomness randomness,
                 AdmissionSettings settings) {
        this.randomness = randomness;
        this.redis = redis;
        this.clock = clock;
        this.ttlSeconds = settings.captchaTtlSeconds();
    }

    private final Randomness randomness;

    @Override
    public CaptchaChallenge issue(long activityId, long userId) {
        RandomGenerator random = randomness.generator();
        StringBuilder answer = new StringBuilder();
        for (int i = 0; i < LENGTH; i++) {
            answer.append(CaptchaPicture.ALPHABET.charAt(random.nextInt(CaptchaPicture.ALPHABET.length())));
        }
        String challengeId = randomness.hexId(16);
        redis.set(key(activityId, challengeId), activityId + "|" + userId + "|" + answer,
                SetParams.setParams().ex(ttlSeconds));
        Instant expiresAt = clock.instant().plus(Duration.ofSeconds(ttlSeconds));
        return new CaptchaChallenge(challengeId, CaptchaPicture.png(answer.toString(), random), expiresAt);
    }

    @Override
    public boolean verify(long activityId, long userId, String challengeId, String answer) {
        if (challengeId == null || answer == null || !challengeId.matches("[0-9a-f]{32}")) {
            return false;
        }
        String stored = redis.getDel(key(activityId, challengeId));
        if (stored == null) {
            return false;
        }
        String[] parts = stored.split("\\|", 3);
        return parts.length == 3 && parts[0].equals(Long.toString(activityId)) && parts[1].equals(Long.toString(userId))
                && parts[2].equalsIgnoreCase(answer.trim());
    }

    /** In the world of the activity the challenge is for ({@code rh:cap:{…}} for a rehearsal's). */
    private static String key(long activityId, String challengeId) {
        return seckill.redis.World.of(activityId).key("cap:{" + challengeId + "}");
    }
}
