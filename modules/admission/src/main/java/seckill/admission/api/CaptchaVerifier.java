package seckill.admission.api;

/**
 * Issues and checks the human test in front of purchase tokens. The built-in implementation draws
 * a PNG server-side and keeps the answer in Redis, single use and short-lived ({@code @Named("image")}); a
 * shop plugs in its own (a third-party captcha, a slider) as a CDI bean implementing this interface with a
 * {@code @Named} of its own, chosen by {@code seckill.admission.captcha-verifier}. The proof of work and
 * the challenge limits stay in front of whichever verifier is chosen.
 */
public interface CaptchaVerifier {

    CaptchaChallenge issue(long activityId, long userId);

    /** Whether the answer solves the challenge for this buyer and activity; a challenge is usable once. */
    boolean verify(long activityId, long userId, String challengeId, String answer);
}
