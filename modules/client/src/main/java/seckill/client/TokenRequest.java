package seckill.client;

/** The answer to a challenge, exchanged for a purchase token. */
public record TokenRequest(String challengeId, String answer) {
}
