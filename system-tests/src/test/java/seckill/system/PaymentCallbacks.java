package seckill.system;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signed payment callbacks as the payment provider sends them: the documented format
 * (docs/payments.md), written here independently of the service's own code, and the key the tests
 * that pay configure ({@code @AddConfig(key = "seckill.payment.hmac-key", value = PAYMENT_KEY)}).
 */
public final class PaymentCallbacks {

    public static final String PAYMENT_KEY = "test-payment-key-of-at-least-32-chars";

    private PaymentCallbacks() {
    }

    /** The {@code X-Signature} header for a body, signed now with {@link #PAYMENT_KEY}. */
    public static String sign(String body) {
        return header(PAYMENT_KEY, Instant.now().getEpochSecond(), body);
    }

    /** The {@code X-Signature} header: {@code t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">}. */
    public static String header(String key, long unixSeconds, String body) {
        return "t=" + unixSeconds + ",v1=" + hex(key, unixSeconds + "." + body);
    }

    public static String hex(String key, String text) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
