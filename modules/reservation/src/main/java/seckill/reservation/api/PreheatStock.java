package seckill.reservation.api;

import java.time.Instant;

/**
 * Command: put a new SKU's stock into Redis before its sale opens, split over {@code buckets}
 * buckets, with every key of the SKU expiring at {@code keysExpireAt}.
 */
public record PreheatStock(long activityId, long skuId, long stock, int buckets, Instant keysExpireAt) {

    public PreheatStock {
        if (activityId <= 0 || skuId <= 0 || stock < 0 || buckets < 1 || keysExpireAt == null) {
            throw new IllegalArgumentException("invalid preheat command");
        }
    }

    /** The units bucket {@code bucket} starts with: an even split, the first buckets taking the remainder. */
    public static long share(long stock, int buckets, int bucket) {
        return stock / buckets + (bucket < stock % buckets ? 1 : 0);
    }
}
