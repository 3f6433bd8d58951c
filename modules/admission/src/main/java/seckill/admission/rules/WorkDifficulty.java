package seckill.admission.rules;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The proof of work in front of a purchase token, as Queue-it and Cloudflare ask for one: a nonce such
 * that SHA-256(challengeId + ":" + nonce) starts with at least D zero bits. Finding one costs about 2^D
 * hashes; checking it costs one. D rises with load: the operator's base {@code bits} while the recent
 * challenge rate is under {@code threshold} per second, then one more bit each time the rate doubles
 * (rate ≥ threshold: +1, ≥ 2×: +2, ≥ 4×: +3, …), never above {@code maxBits}. So the work a client does
 * grows in proportion to the load, and a crowd of scripts pays for the crowd it makes.
 */
public final class WorkDifficulty {

    private WorkDifficulty() {
    }

    /** The difficulty to ask for now; 0 (no work) when the base is 0. */
    public static int bits(int baseBits, int maxBits, long thresholdPerSecond, double ratePerSecond) {
        if (baseBits <= 0) {
            return 0;
        }
        int extra = 0;
        if (thresholdPerSecond > 0 && ratePerSecond >= thresholdPerSecond) {
            extra = 1 + (int) Math.floor(Math.log(ratePerSecond / thresholdPerSecond) / Math.log(2));
        }
        return Math.min(Math.max(baseBits, maxBits), baseBits + extra);
    }

    /** Whether the nonce proves the work: one hash. */
    public static boolean proves(String challengeId, String nonce, int bits) {
        return bits <= 0 || leadingZeroBits(sha256(challengeId + ":" + nonce)) >= bits;
    }

    /** Finds a nonce (decimal counter from 0), as a client does; for tests and the drill. */
    public static String solve(String challengeId, int bits) {
        for (long n = 0; ; n++) {
            String nonce = Long.toString(n);
            if (proves(challengeId, nonce, bits)) {
                return nonce;
            }
        }
    }

    static int leadingZeroBits(byte[] hash) {
        int bits = 0;
        for (byte b : hash) {
            if (b == 0) {
                bits += 8;
            } else {
                return bits + Integer.numberOfLeadingZeros(b & 0xff) - 24;
            }
        }
        return bits;
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }
}
