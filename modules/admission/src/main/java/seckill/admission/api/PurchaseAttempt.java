package seckill.admission.api;

import java.util.Optional;

/**
 * A purchase attempt as admission sees it: who (buyer and client address), for what, the
 * activity's sale window (the caller looked the activity up already), and the purchase token if any.
 */
public record PurchaseAttempt(long activityId, long skuId, long userId, String clientIp, SaleWindow window,
                              Optional<String> purchaseToken) {
}
