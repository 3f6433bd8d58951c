package seckill.settlement.rules;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The payment callback's signature: {@code X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>} where
 * the HMAC is over {@code "<t>." + raw body} with the shared key. The timestamp is inside the MAC, so
 * a captured callback is good only while {@code t} is within {@code window} of this service's clock
 * (either side: the payment side's clock may run ahead). Several {@code v1=} entries may be sent
 * (the payment side rotating keys); one that verifies is enough. Compared in constant time, and the
 * timestamp is judged only once the MAC verified, so nothing about the clock is told to a forger.
 */
public final class CallbackSignature {

    /** What a header proves about a body. */
    public sealed interface Verdict {
    }

    public record Valid(Instant signedAt) implements Verdict {
    }

    /** Missing, malformed, or no entry is the MAC of this body and timestamp. */
    public record Forged() implements Verdict {
    }

    /** A true signature whose timestamp is outside the window: a replay, or a clock far off. */
    public record Stale(Instant signedAt) implements Verdict {
    }

    private static final int MAX_HEADER = 1_024;
    private static final int MAX_SECONDS_DIGITS = 12;

    private final SecretKeySpec key;
    private final Duration window;

    public CallbackSignature(String secret, Duration window) {
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
        this.window = window;
    }

    /** The header value for {@code body} signed at {@code at}, as the payment side sends it. */
    public String sign(byte[] body, Instant at) {
        long t = at.getEpochSecond();
        return "t=" + t + ",v1=" + HexFormat.of().formatHex(mac(t, body));
    }

    public Verdict verify(byte[] body, String header, Instant now) {
        if (body == null || header == null || header.length() > MAX_HEADER) {
            return new Forged();
        }
        String t = null;
        List<String> offered = new ArrayList<>();
        for (String part : header.split(",")) {
            String entry = part.trim();
            int eq = entry.indexOf('=');
            if (eq <= 0) {
                return new Forged();
            }
            String name = entry.substring(0, eq);
            String value = entry.substring(eq + 1);
            if (name.equals("t")) {
                if (t != null) {
                    return new Forged();
                }
                t = value;
            } else if (name.equals("v1")) {
                offered.add(value.toLowerCase());
            }
            // other names (a future scheme) are ignored, as the payment side's other v<n> would be
        }
        if (t == null || offered.isEmpty() || t.isEmpty() || t.length() > MAX_SECONDS_DIGITS
                || !t.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return new Forged();
        }
        long seconds = Long.parseLong(t);
        byte[] expected = HexFormat.of().formatHex(mac(seconds, body)).getBytes(StandardCharsets.US_ASCII);
        boolean verified = false;
        for (String candidate : offered) {
            // every entry is compared, so the time taken does not say which one matched
            verified |= MessageDigest.isEqual(candidate.getBytes(StandardCharsets.US_ASCII), expected);
        }
        if (!verified) {
            return new Forged();
        }
        Instant signedAt = Instant.ofEpochSecond(seconds);
        boolean within = !signedAt.isBefore(now.minus(window)) && !signedAt.isAfter(now.plus(window));
        return within ? new Valid(signedAt) : new Stale(signedAt);
    }

    private byte[] mac(long t, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            mac.update((t + ".").getBytes(StandardCharsets.US_ASCII));
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }
}
