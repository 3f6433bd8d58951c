package seckill.admission.api;

import java.time.Instant;

/**
 * A challenge shown to a buyer: its id, the image to solve (PNG bytes) and when it lapses.
 */
public record CaptchaChallenge(String challengeId, byte[] png, Instant expiresAt) {
}
