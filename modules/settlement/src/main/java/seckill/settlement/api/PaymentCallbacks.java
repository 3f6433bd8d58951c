package seckill.settlement.api;

/**
 * The settlement module's door for the payment side: verify the HMAC-SHA256 signature over the
 * signed timestamp and the raw body ({@code X-Signature: t=<unix seconds>,v1=<hex>}, within the
 * configured window), check the amount and currency against the price, then let the order's status
 * compare-and-set decide, with the payment's row in the same transaction.
 */
public interface PaymentCallbacks {

    PaymentAnswer handle(byte[] rawBody, String signatureHeader);
}
