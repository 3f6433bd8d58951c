package seckill.admission.api;

import java.time.Instant;

/**
 * A purchase attempt as admission sees it: who, for what, and the activity's window (the caller
 * looked the activity up already).
 */
public record PurchaseAttempt(long activityId, long skuId, long userId, Instant startsAt, Instant endsAt) {
}
