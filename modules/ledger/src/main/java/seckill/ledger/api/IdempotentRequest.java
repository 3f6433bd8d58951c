package seckill.ledger.api;

/**
 * A creation request that may be retried: the client's {@code Idempotency-Key} and a fingerprint of
 * what it asked (the body's SHA-256). The same key with the same fingerprint returns what the first
 * request created; the same key with another fingerprint is refused ({@link Conflict}).
 */
public record IdempotentRequest(String key, String fingerprint) {

    public IdempotentRequest {
        if (key == null || key.isBlank() || key.length() > 200 || fingerprint == null || fingerprint.length() != 64) {
            throw new IllegalArgumentException("an idempotency key of 1..200 characters and a SHA-256 fingerprint");
        }
    }

    /** The key was used before for a different request. */
    public static final class Conflict extends RuntimeException {
        public Conflict(String key) {
            super("idempotency key " + key + " was used for another request", null, false, false);
        }
    }
}
