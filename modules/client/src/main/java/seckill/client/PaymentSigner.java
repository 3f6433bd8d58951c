package seckill.client;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs a payment callback as the payment side must (docs/payments.md): the {@code X-Signature} value
 * {@code t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>." + body>} with the shared key
 * ({@code seckill.payment.hmac-key}). The service accepts it only while {@code t} is within its
 * window ({@code seckill.payment.signature-window-seconds}) of the service's clock, so sign each
 * attempt when it is sent, and send exactly the bytes that were signed (UTF-8). For
 * {@link SeckillApi#paymentCallback(String, String)}, as the drill and the tests use it.
 */
public final class PaymentSigner {

    private final SecretKeySpec key;

    public PaymentSigner(String sharedKey) {
        this.key = new SecretKeySpec(sharedKey.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
    }

    /** The {@code X-Signature} value for {@code body} sent at {@code at}. */
    public String sign(String body, Instant at) {
        long t = at.getEpochSecond();
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            mac.update((t + ".").getBytes(StandardCharsets.US_ASCII));
            return "t=" + t + ",v1=" + HexFormat.of().formatHex(mac.doFinal(body.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }
}
