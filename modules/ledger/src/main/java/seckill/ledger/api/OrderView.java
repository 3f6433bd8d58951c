package seckill.ledger.api;

import java.time.Instant;
import java.util.Optional;

import seckill.ledger.api.catalogue.SkuPrice;

/**
 * An order as the ledger holds it; {@code price} is the unit price it was sold at (its SKU's flash
 * price when the order was written), empty for a SKU without one.
 */
public record OrderView(String orderNo, String reservationId, long activityId, long skuId, long userId, int quantity,
                        OrderStatus status, Instant expiresAt, Instant createdAt, Optional<SkuPrice> price) {
}
