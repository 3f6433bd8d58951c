package seckill.ledger.api;

/**
 * One refill waiting in the outbox to be applied to Redis: units of a reservation that will never
 * be (or no longer are) sold, going back to the bucket they came from. {@code releaseBuyer} says
 * whether the buyer may reserve again (true when no order exists for them).
 */
public record StockRefill(long id, long activityId, long skuId, int bucket, String reservationId, long userId,
                          int quantity, boolean releaseBuyer) {
}
