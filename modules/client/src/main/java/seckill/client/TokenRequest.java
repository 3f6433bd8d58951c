package seckill.client;

/** The answer to a challenge, with the proof of work it asked for ({@link ProofOfWork#solve}), exchanged for a purchase token. */
public record TokenRequest(String challengeId, String answer, String nonce) {

    /** An answer without a nonce: only for a service that asks for no work. */
    public TokenRequest(String challengeId, String answer) {
        this(challengeId, answer, null);
    }
}
