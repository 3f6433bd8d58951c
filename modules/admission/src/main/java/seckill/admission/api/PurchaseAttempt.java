package seckill.admission.api;

import java.time.Instant;
import java.util.Optional;

/**
 * A purchase attempt as admission sees it: who (buyer and client address), for what, the
 * activity's window (the caller looked the activity up already), and the purchase token if any.
 */
public record PurchaseAttempt(long activityId, long skuId, long userId, String clientIp, Instant startsAt,
                              Instant endsAt, Optional<String> purchaseToken) {

    public PurchaseAttempt(long activityId, long skuId, long userId, Instant startsAt, Instant endsAt) {
        this(activityId, skuId, userId, "", startsAt, endsAt, Optional.empty());
    }
}
