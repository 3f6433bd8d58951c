package seckill.drill.chaos;

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
        String body = body(orderNo, paymentId, PRICE, CURRENCY, paidAt);
        return new Callback(body, "X-Signature", signer.sign(body, paidAt));
    }

    /**
     * A callback the service must refuse, forged as {@code how} ({@link ChaosPlan#FORGERIES}) for
     * {@code orderNo}; {@code unknownOrderNo} is a well-formed order number no order has. The signature
     * is null when none is sent.
     */
    Callback forged(String how, String orderNo, String unknownOrderNo, String paymentId, Instant now) {
        String genuine = body(orderNo, paymentId, PRICE, CURRENCY, now);
        return switch (how) {
            case "bad-signature" -> new Callback(genuine, "X-Signature",
                    new PaymentSigner("not-the-payment-key-0123456789abcdef").sign(genuine, now));
            case "no-signature" -> new Callback(genuine, "X-Signature", null);
            // a genuine callback's signature over a body that was changed after signing
            case "replayed-amount" -> new Callback(body(orderNo, paymentId, "0.01", CURRENCY, now), "X-Signature",
                    signer.sign(genuine, now));
            case "replayed-order" -> new Callback(body(unknownOrderNo, paymentId, PRICE, CURRENCY, now),
                    "X-Signature", signer.sign(genuine, now));
            // a true signature over what the service must still refuse
            case "wrong-amount" -> signed(body(orderNo, paymentId, "0.99", CURRENCY, now), now);
            case "wrong-currency" -> signed(body(orderNo, paymentId, PRICE, "USD", now), now);
            case "unknown-order" -> signed(body(unknownOrderNo, paymentId, PRICE, CURRENCY, now), now);
            default -> throw new IllegalArgumentException("unknown forgery " + how);
        };
    }

    private Callback signed(String body, Instant now) {
        return new Callback(body, "X-Signature", signer.sign(body, now));
    }

    private static String body(String orderNo, String paymentId, String amount, String currency, Instant paidAt) {
        return "{\"orderNo\":\"%s\",\"paymentId\":\"%s\",\"amount\":%s,\"currency\":\"%s\",\"paidAt\":\"%s\"}"
                .formatted(orderNo, paymentId, amount, currency, paidAt);
    }

    /** What the history keeps of a callback sent: the body, then the signature header on a line of its own. */
    static String sent(Callback callback) {
        return callback.body() + "\n" + callback.signatureHeader() + ": "
                + (callback.signature() == null ? "(none)" : callback.signature());
    }
}
