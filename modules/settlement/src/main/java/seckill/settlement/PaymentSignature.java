package seckill.settlement;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 over the raw callback body, sent as lowercase hex in {@code X-Signature} (an optional
 * {@code sha256=} prefix is accepted). Compared in constant time.
 */
final class PaymentSignature {

    private final SecretKeySpec key;

    PaymentSignature(String secret) {
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
    }

    String sign(byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return HexFormat.of().formatHex(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    boolean verifies(byte[] body, String header) {
        if (header == null) {
            return false;
        }
        String offered = header.trim().toLowerCase();
        if (offered.startsWith("sha256=")) {
            offered = offered.substring("sha256=".length());
        }
        return MessageDigest.isEqual(offered.getBytes(StandardCharsets.US_ASCII),
                sign(body).getBytes(StandardCharsets.US_ASCII));
    }
}
