package seckill.settlement.api;

/**
 * The settlement module's door for the payment side: verify the HMAC-SHA256 signature over the raw
 * body, then let the order's status compare-and-set decide.
 */
public interface PaymentCallbacks {

    PaymentAnswer handle(byte[] rawBody, String signatureHeader);
}
