package seckill.client;

/**
 * A captcha challenge: its id, a PNG as a data URL for a human to read, when it expires, and the proof of
 * work its answer must carry ({@link ProofOfWork#solve} finds it).
 */
public record Challenge(String challengeId, String image, String expiresAt, ProofOfWork proofOfWork) {
    // one constructor only: JSON-B (Yasson) refuses a record with several ("Multiple constructors found")
}
