package seckill.reservation.api;

/**
 * Command: one buyer asks for {@code quantity} units of a SKU in an activity. {@code buckets} is the
 * number of stock buckets the SKU was preheated with; {@code requestId} is the client's idempotency
 * key and travels with the reservation event into the order. {@code window} is the buyer's rate limit
 * the same script call judges first ({@link BuyerWindow#NONE}: none).
 */
public record ReserveStock(long activityId, long skuId, int buckets, long userId, int quantity, String requestId,
                           BuyerWindow window) {

    public ReserveStock(long activityId, long skuId, int buckets, long userId, int quantity, String requestId) {
        this(activityId, skuId, buckets, userId, quantity, requestId, BuyerWindow.NONE);
    }

    public ReserveStock {
        if (activityId <= 0 || skuId <= 0 || userId <= 0) {
            throw new IllegalArgumentException("ids must be positive");
        }
        if (buckets < 1) {
            throw new IllegalArgumentException("buckets must be >= 1");
        }
        if (quantity < 1) {
            throw new IllegalArgumentException("quantity must be >= 1");
        }
        if (requestId == null || requestId.isBlank()) {
            throw new IllegalArgumentException("requestId is required");
        }
        if (window == null) {
            throw new IllegalArgumentException("window is required (BuyerWindow.NONE for none)");
        }
    }
}
