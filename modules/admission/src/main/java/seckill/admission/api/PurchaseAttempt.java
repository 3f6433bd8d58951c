package seckill.admission.api;

import java.util.Optional;

/**
 * A purchase attempt as admission sees it: who (buyer and client address), for what, the
 * activity's sale window (the caller looked the activity up already), the purchase token if any, and
 * the client's requestId (a purchase token is spent on the first SKU it is shown with, recorded with
 * the requestId so that purchase's retries are recognised).
 */
public record PurchaseAttempt(long activityId, long skuId, long userId, String clientIp, SaleWindow window,
                              Optional<String> purchaseToken, String requestId) {

    /** An attempt without a requestId (callers that never spend a token). */
    public PurchaseAttempt(long activityId, long skuId, long userId, String clientIp, SaleWindow window,
                           Optional<String> purchaseToken) {
        this(activityId, skuId, userId, clientIp, window, purchaseToken, "");
    }
}
