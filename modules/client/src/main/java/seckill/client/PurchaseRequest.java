package seckill.client;

/**
 * A purchase: {@code quantity} units of {@code skuId}, under the buyer's idempotency key
 * {@code requestId} (letters, digits and {@code . _ : -}, at most 64): repeating it never buys twice.
 */
public record PurchaseRequest(long skuId, int quantity, String requestId) {
}
