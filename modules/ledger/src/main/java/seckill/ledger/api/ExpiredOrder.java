package seckill.ledger.api;

/** An order the timeout sweep moved from PENDING to TIMEOUT, with its stock refilled. */
public record ExpiredOrder(String orderNo, String reservationId, long activityId, long skuId, int quantity) {
}
