package seckill.admission.api;

import java.time.Instant;

/**
 * The admission module's door for captcha-backed purchase tokens: a buyer who solved a challenge
 * while the activity is open gets an HMAC-signed token bound to them and the activity.
 */
public interface PurchaseTokens {

    CaptchaChallenge challenge(long activityId, long userId);

    TokenIssue issue(long activityId, long userId, String challengeId, String answer, Instant startsAt, Instant endsAt);
}
