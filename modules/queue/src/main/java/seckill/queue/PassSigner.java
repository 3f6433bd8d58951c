package seckill.queue;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Passes and tickets, signed like the purchase tokens: {@code base64url(payload) + "." +
 * base64url(HMAC-SHA256)}. A pass is {@code "p1|keyId|activity|buyer|place|expiresEpochMillis"}, a ticket
 * {@code "t1|keyId|activity|buyer|place"}. The first configured key signs, every configured key verifies
 * ({@code id=secret,id=secret}), so keys rotate as the tokens' do. Signing the same place twice gives the
 * same text, so a buyer asking again is shown the same pass.
 */
final class PassSigner {

    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder D64 = Base64.getUrlDecoder();

    private final Map<String, byte[]> keys = new LinkedHashMap<>();
    private final String signingKeyId;

    PassSigner(String spec) {
        for (String pair : spec.split(",")) {
            String[] kv = pair.trim().split("=", 2);
            if (kv.length != 2 || kv[0].isBlank() || kv[1].isBlank() || kv[0].contains("|")) {
                throw new IllegalArgumentException("seckill.queue.pass-keys must look like id=secret[,id=secret]");
            }
            keys.put(kv[0], kv[1].getBytes(StandardCharsets.UTF_8));
        }
        signingKeyId = keys.keySet().iterator().next();
    }

    private PassSigner() {
        signingKeyId = null;
    }

    /** A signer without keys: every pass is refused NOT_CONFIGURED and nothing can be signed. */
    static PassSigner unconfigured() {
        return new PassSigner();
    }

    String pass(long activityId, long buyerId, long place, long expiresEpochMillis) {
        return sign("p1|" + signingKey() + "|" + activityId + "|" + buyerId + "|" + place + "|" + expiresEpochMillis);
    }

    String ticket(long activityId, long buyerId, long place) {
        return sign("t1|" + signingKey() + "|" + activityId + "|" + buyerId + "|" + place);
    }

    /** Why the pass is refused for this buyer and activity at {@code nowMillis}, or empty when it is good. */
    Optional<String> passRefusal(String pass, long activityId, long buyerId, long nowMillis) {
        if (signingKeyId == null) {
            return Optional.of("NOT_CONFIGURED");
        }
        String[] parts = verified(pass, "p1", 6);
        if (parts == null) {
            return Optional.of(lastRefusal(pass));
        }
        try {
            if (Long.parseLong(parts[5]) <= nowMillis) {
                return Optional.of("EXPIRED");
            }
            if (Long.parseLong(parts[2]) != activityId) {
                return Optional.of("OTHER_ACTIVITY");
            }
            if (Long.parseLong(parts[3]) != buyerId) {
                return Optional.of("OTHER_BUYER");
            }
        } catch (NumberFormatException e) {
            return Optional.of("MALFORMED");
        }
        return Optional.empty();
    }

    /** When a pass (of a known key) runs out, in epoch ms; 0 when it is not a good pass. */
    long passExpiry(String pass) {
        String[] parts = signingKeyId == null ? null : verified(pass, "p1", 6);
        try {
            return parts == null ? 0 : Long.parseLong(parts[5]);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The place a ticket of this buyer and activity names, or -1 when it is not a good ticket of theirs. */
    long ticketPlace(String ticket, long activityId, long buyerId) {
        if (signingKeyId == null) {
            return -1;
        }
        String[] parts = verified(ticket, "t1", 5);
        try {
            if (parts == null || Long.parseLong(parts[2]) != activityId || Long.parseLong(parts[3]) != buyerId) {
                return -1;
            }
            return Math.max(-1, Long.parseLong(parts[4]));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private String signingKey() {
        if (signingKeyId == null) {
            throw new IllegalStateException("no key to sign queue passes: set seckill.queue.pass-keys "
                    + "(or seckill.admission.token-keys)");
        }
        return signingKeyId;
    }

    private String sign(String payload) {
        byte[] body = payload.getBytes(StandardCharsets.UTF_8);
        return B64.encodeToString(body) + "." + B64.encodeToString(mac(keys.get(signingKeyId), body));
    }

    /** The payload's parts when the text is well formed, of the kind, and signed by a known key; else null. */
    private String[] verified(String text, String kind, int parts) {
        String[] checked = check(text, kind, parts);
        return checked.length == parts ? checked : null;
    }

    private String lastRefusal(String text) {
        String[] checked = check(text, "p1", 6);
        return checked.length == 1 ? checked[0] : "MALFORMED";
    }

    /** The parts, or a one-element array naming the refusal. */
    private String[] check(String text, String kind, int count) {
        if (text == null || text.isEmpty() || text.length() > 512) {
            return new String[] {text == null || text.isEmpty() ? "MISSING" : "MALFORMED"};
        }
        int dot = text.indexOf('.');
        if (dot < 1) {
            return new String[] {"MALFORMED"};
        }
        byte[] body;
        byte[] signature;
        try {
            body = D64.decode(text.substring(0, dot));
            signature = D64.decode(text.substring(dot + 1));
        } catch (IllegalArgumentException e) {
            return new String[] {"MALFORMED"};
        }
        // one spelling per pass: the decoder also takes padding and a last character's unused bits, which would
        // make texts that claim.lua (binding a pass by its text) counts as new passes of the buyer's
        if (!B64.encodeToString(body).equals(text.substring(0, dot))
                || !B64.encodeToString(signature).equals(text.substring(dot + 1))) {
            return new String[] {"MALFORMED"};
        }
        String[] parts = new String(body, StandardCharsets.UTF_8).split("\\|");
        if (parts.length != count || !parts[0].equals(kind)) {
            return new String[] {"MALFORMED"};
        }
        byte[] key = keys.get(parts[1]);
        if (key == null) {
            return new String[] {"UNKNOWN_KEY"};
        }
        if (!MessageDigest.isEqual(signature, mac(key, body))) {
            return new String[] {"BAD_SIGNATURE"};
        }
        return parts;
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
