package seckill.app.identity;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import jakarta.inject.Inject;
import seckill.app.sale.HotPathSingleton;

/**
 * The gateway mode's proof that the gateway, not the client, wrote {@code X-User-Id}: the signature
 * header {@code t=<epoch seconds>,v1=<hex HMAC-SHA256 of "<userId>.<t>">} under the shared key
 * {@code seckill.identity.gateway.hmac-key}, with {@code t} within the window of now (a captured
 * header replays for at most that long). A header without its proof, a proof for another id, a
 * stale one or one under another key names nobody.
 */
@HotPathSingleton
public class GatewaySignatures {

    private final IdentitySettings settings;
    private final Clock clock;
    private final SecretKeySpec key;

    @Inject
    public GatewaySignatures(IdentitySettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
        this.key = settings.gatewayKey()
                .map(k -> new SecretKeySpec(k.getBytes(StandardCharsets.UTF_8), "HmacSHA256")).orElse(null);
    }

    /** For CDI's proxy. */
    GatewaySignatures() {
        this.settings = null;
        this.clock = null;
        this.key = null;
    }

    /** The buyer the gateway signed for, or 0. */
    public long buyerOf(String userId, String signature) {
        long buyer = BearerTokens.buyerId(userId);
        if (buyer <= 0 || key == null || signature == null || signature.length() > 200) {
            return 0;
        }
        long t = 0;
        byte[] offered = null;
        for (String part : signature.split(",")) {
            String p = part.trim();
            if (p.startsWith("t=")) {
                t = BearerTokens.buyerId(p.substring(2));
            } else if (p.startsWith("v1=") && p.length() == 3 + 64) {
                try {
                    offered = HexFormat.of().parseHex(p, 3, p.length());
                } catch (IllegalArgumentException e) {
                    return 0;
                }
            }
        }
        if (t <= 0 || offered == null
                || Math.abs(clock.millis() / 1000 - t) > settings.gatewayWindow().toSeconds()) {
            return 0;
        }
        return MessageDigest.isEqual(offered, sign(userId + "." + t)) ? buyer : 0;
    }

    /** The gateway's signature of this buyer at this second (for a gateway written in Java, and the tests). */
    public String signatureOf(long buyer, long epochSeconds) {
        return "t=" + epochSeconds + ",v1=" + HexFormat.of().formatHex(sign(buyer + "." + epochSeconds));
    }

    private byte[] sign(String text) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
