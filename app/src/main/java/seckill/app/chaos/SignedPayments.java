package seckill.app.chaos;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The payment provider's side of a callback, in one place: the body and its signature header. The
 * signature's format is about to change (it will cover a timestamp); only this class knows it.
 */
final class SignedPayments {

    /** A callback ready to send: the body and the headers that sign it. */
    record Callback(String body, String signatureHeader, String signature) {
    }

    private final String key;

    SignedPayments(String key) {
        this.key = key;
    }

    Callback of(String orderNo, String paymentId, Instant paidAt) {
        String body = "{\"orderNo\":\"%s\",\"paymentId\":\"%s\",\"amount\":1,\"paidAt\":\"%s\"}"
                .formatted(orderNo, paymentId, paidAt);
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return new Callback(body, "X-Signature",
                    HexFormat.of().formatHex(mac.doFinal(body.getBytes(StandardCharsets.UTF_8))));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
