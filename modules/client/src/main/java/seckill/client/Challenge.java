package seckill.client;

/** A captcha challenge: its id, a PNG as a data URL for a human to read, and when it expires. */
public record Challenge(String challengeId, String image, String expiresAt) {
}
