package seckill.admission.api;

/**
 * The admission module's door for captcha-backed purchase tokens: a buyer who solved a challenge
 * while the activity is open gets an HMAC-signed token bound to them and the activity.
 */
public interface PurchaseTokens {

    /**
     * A captcha challenge for the buyer, unless sales are halted, the buyer or {@code clientIp} is
     * blocked, the sale ended, or they asked for too many this minute.
     */
    ChallengeIssue challenge(long activityId, long userId, String clientIp, SaleWindow window);

    /**
     * A purchase token for a buyer who answered their challenge while the sale is open, with the proof
     * of work the challenge asked for ({@code nonce}, null when none was sent).
     */
    TokenIssue issue(long activityId, long userId, String challengeId, String answer, String nonce, SaleWindow window);

    /** {@link #issue(long, long, String, String, String, SaleWindow)} without a nonce. */
    default TokenIssue issue(long activityId, long userId, String challengeId, String answer, SaleWindow window) {
        return issue(activityId, userId, challengeId, answer, null, window);
    }
}
