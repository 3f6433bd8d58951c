package seckill.admission;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Purchase tokens: {@code base64url("v1|keyId|activityId|userId|expiresEpochSecond") + "." +
 * base64url(HMAC-SHA256)}. The first configured key signs; every configured key verifies, so a key
 * is rotated by putting the new one first and dropping the old one after a token lifetime.
 */
final class TokenSigner {

    /** Why a token was refused, or null when it is valid. */
    enum Refusal { MALFORMED, UNKNOWN_KEY, BAD_SIGNATURE, EXPIRED, OTHER_BUYER, OTHER_ACTIVITY }

    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder D64 = Base64.getUrlDecoder();

    private final Map<String, byte[]> keys = new LinkedHashMap<>();
    private final String signingKeyId;

    /** {@code spec} is "id=secret,id=secret"; the first signs. */
    TokenSigner(String spec) {
        for (String pair : spec.split(",")) {
            String[] kv = pair.trim().split("=", 2);
            if (kv.length != 2 || kv[0].isBlank() || kv[1].isBlank() || kv[0].contains("|")) {
                throw new IllegalArgumentException("seckill.admission.token-keys must look like id=secret[,id=secret]");
            }
            keys.put(kv[0], kv[1].getBytes(StandardCharsets.UTF_8));
        }
        signingKeyId = keys.keySet().iterator().next();
    }

    String sign(long activityId, long userId, Instant expiresAt) {
        String payload = "v1|" + signingKeyId + "|" + activityId + "|" + userId + "|" + expiresAt.getEpochSecond();
        byte[] body = payload.getBytes(StandardCharsets.UTF_8);
        return B64.encodeToString(body) + "." + B64.encodeToString(mac(keys.get(signingKeyId), body));
    }

    Refusal check(String token, long activityId, long userId, Instant now) {
        if (token == null || token.length() > 512) {
            return Refusal.MALFORMED;
        }
        int dot = token.indexOf('.');
        if (dot < 1) {
            return Refusal.MALFORMED;
        }
        byte[] body;
        byte[] signature;
        try {
            body = D64.decode(token.substring(0, dot));
            signature = D64.decode(token.substring(dot + 1));
        } catch (IllegalArgumentException e) {
            return Refusal.MALFORMED;
        }
        String[] parts = new String(body, StandardCharsets.UTF_8).split("\\|");
        if (parts.length != 5 || !parts[0].equals("v1")) {
            return Refusal.MALFORMED;
        }
        byte[] key = keys.get(parts[1]);
        if (key == null) {
            return Refusal.UNKNOWN_KEY;
        }
        if (!MessageDigest.isEqual(signature, mac(key, body))) {
            return Refusal.BAD_SIGNATURE;
        }
        try {
            if (Long.parseLong(parts[4]) <= now.getEpochSecond()) {
                return Refusal.EXPIRED;
            }
            if (Long.parseLong(parts[2]) != activityId) {
                return Refusal.OTHER_ACTIVITY;
            }
            if (Long.parseLong(parts[3]) != userId) {
                return Refusal.OTHER_BUYER;
            }
        } catch (NumberFormatException e) {
            return Refusal.MALFORMED;
        }
        return null;
    }

    private static byte[] mac(byte[] key, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }
}
