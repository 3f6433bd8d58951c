package seckill.reservation.api;

import java.util.Optional;

/**
 * Reads which reservation Redis holds for a buyer on a SKU. Redis failures surface as
 * {@link ReservationUnavailable}.
 */
public interface Holdings {

    /**
     * The reservation Redis holds for the buyer on this SKU (split into {@code buckets}); empty when
     * they hold none, or while a click of theirs is still being served across buckets.
     */
    Optional<ReservationId> heldFor(long activityId, long skuId, int buckets, long userId);

    /** Whether the reservation is the one Redis holds for that buyer (the SKU has {@code buckets} buckets). */
    boolean isHeldBy(ReservationId id, long userId, int buckets);
}
