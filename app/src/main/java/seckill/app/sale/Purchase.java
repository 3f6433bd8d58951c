package seckill.app.sale;

import java.util.Optional;

/**
 * Command: a buyer ({@code userId}, seen from {@code clientIp}) asks for {@code quantity} units of a
 * SKU in an activity, under their idempotency key {@code requestId}, with a purchase token if they
 * have one, and their queue pass (issue #33) if they were called from the waiting line. Already parsed and range-checked at the edge.
 */
public record Purchase(long activityId, long skuId, long quantity, long userId, String clientIp, String requestId,
                       Optional<String> purchaseToken, Optional<String> queuePass) {

    /** A purchase without a queue pass (the queue is off, or the caller has none). */
    public Purchase(long activityId, long skuId, long quantity, long userId, String clientIp, String requestId,
                    Optional<String> purchaseToken) {
        this(activityId, skuId, quantity, userId, clientIp, requestId, purchaseToken, Optional.empty());
    }
}
