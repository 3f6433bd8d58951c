package seckill.app.chaos;

import java.time.Instant;

import seckill.client.PaymentSigner;

/**
 * The payment provider's side of a callback, in one place: the body (the price the instances are
 * configured with) and its signature header, {@code t=<unix seconds>,v1=<HMAC of "<t>." + body>}
 * (docs/payments.md), signed when it is sent.
 */
final class SignedPayments {

    /** The price every instance of a run is configured with: a payment must equal it. */
    static final String PRICE = "1.00";
    static final String CURRENCY = "CNY";

    /** A callback ready to send: the body and the headers that sign it. */
    record Callback(String body, String signatureHeader, String signature) {
    }

    private final PaymentSigner signer;

    SignedPayments(String key) {
        this.signer = new PaymentSigner(key);
    }

    Callback of(String orderNo, String paymentId, Instant paidAt) {
        String body = "{\"orderNo\":\"%s\",\"paymentId\":\"%s\",\"amount\":%s,\"currency\":\"%s\",\"paidAt\":\"%s\"}"
                .formatted(orderNo, paymentId, PRICE, CURRENCY, paidAt);
        return new Callback(body, "X-Signature", signer.sign(body, paidAt));
    }
}
