package seckill.ledger.api;

import java.time.Instant;

/** An order as the ledger holds it. */
public record OrderView(String orderNo, String reservationId, long activityId, long skuId, long userId, int quantity,
                        OrderStatus status, Instant expiresAt, Instant createdAt) {
}
