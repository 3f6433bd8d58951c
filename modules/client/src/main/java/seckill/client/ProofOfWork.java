package seckill.client;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The work a challenge asks for: a nonce such that SHA-256(challengeId + ":" + nonce) starts with
 * {@code leadingZeroBits} zero bits; send it as {@link TokenRequest#nonce()}.
 */
public record ProofOfWork(String algorithm, String input, int leadingZeroBits) {

    /** Finds the nonce for the challenge (about 2^leadingZeroBits hashes). */
    public static String solve(Challenge challenge) {
        int bits = challenge.proofOfWork() == null ? 0 : challenge.proofOfWork().leadingZeroBits();
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (long n = 0; ; n++) {
                String nonce = Long.toString(n);
                if (zeroBits(sha.digest((challenge.challengeId() + ":" + nonce).getBytes(StandardCharsets.UTF_8))) >= bits) {
                    return nonce;
                }
            }
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    private static int zeroBits(byte[] hash) {
        int bits = 0;
        for (byte b : hash) {
            if (b != 0) {
                return bits + Integer.numberOfLeadingZeros(b & 0xff) - 24;
            }
            bits += 8;
        }
        return bits;
    }
}
