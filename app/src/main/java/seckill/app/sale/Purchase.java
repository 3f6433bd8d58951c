package seckill.app.sale;

import java.util.Optional;

/**
 * Command: a buyer ({@code userId}, seen from {@code clientIp}) asks for {@code quantity} units of a
 * SKU in an activity, under their idempotency key {@code requestId}, with a purchase token if they
 * have one. Already parsed and range-checked at the edge.
 */
public record Purchase(long activityId, long skuId, long quantity, long userId, String clientIp, String requestId,
                       Optional<String> purchaseToken) {
}
