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
 * Purchase tokens: {@code base64url("v2|keyId|activityId|userId|expiresEpochSecond|tokenId") + "." +
 * base64url(HMAC-SHA256)}. The first configured key signs; every configured key verifies, so a key
 * is rotated by putting the new one first and dropping the old one after a token lifetime. The token
 * id names the token where it is spent ({@link TokenSpend}); {@code v1} tokens (no id, signed by an
 * instance of the previous release during a rolling upgrade) still verify and are named by their
 * signature, which is as unique as their payload.
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

    /** What a verified token says about itself: its id and when it lapses. */
    record Claims(String tokenId, long expiresEpochSecond) {
    }

    String sign(long activityId, long userId, Instant expiresAt, String tokenId) {
        if (!tokenId.matches("[0-9A-Za-z_-]{1,64}")) {
            throw new IllegalArgumentException("a token id is 1-64 characters of [0-9A-Za-z_-]");
        }
        String payload = "v2|" + signingKeyId + "|" + activityId + "|" + userId + "|" + expiresAt.getEpochSecond()
                + "|" + tokenId;
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
        if (!(parts.length == 5 && parts[0].equals("v1")) && !(parts.length == 6 && parts[0].equals("v2"))) {
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

    /** The claims of a token {@link #check} accepted. */
    static Claims claims(String token) {
        int dot = token.indexOf('.');
        String[] parts = new String(D64.decode(token.substring(0, dot)), StandardCharsets.UTF_8).split("\\|");
        // a v1 token has no id: its signature names it, re-encoded from its bytes, since the decoder takes
        // several spellings of one signature (the last character's spare bits, padding) and each would be
        // its own spend record
        String id = parts.length == 6 ? parts[5] : "s" + B64.encodeToString(D64.decode(token.substring(dot + 1)));
        return new Claims(id, Long.parseLong(parts[4]));
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
