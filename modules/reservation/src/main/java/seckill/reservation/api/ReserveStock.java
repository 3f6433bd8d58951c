package seckill.reservation.api;

/**
 * Command: one buyer asks for {@code quantity} units of a SKU in an activity. {@code buckets} is the
 * number of stock buckets the SKU was preheated with; {@code requestId} is the client's idempotency
 * key and travels with the reservation event into the order.
 */
public record ReserveStock(long activityId, long skuId, int buckets, long userId, int quantity, String requestId) {

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
    }
}
