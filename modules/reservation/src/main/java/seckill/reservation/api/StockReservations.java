package seckill.reservation.api;

import java.util.Optional;

/**
 * The reservation module's door for the purchase path: preheat a SKU, reserve for a buyer in one
 * atomic Redis step, and read back what Redis holds (remaining stock, a buyer's reservation).
 * Redis failures surface as {@link ReservationUnavailable}, never as a guess.
 */
public interface StockReservations {

    /** Loads a new SKU's stock into Redis. Meant for a SKU that has never been sold. */
    void preheat(PreheatStock command);

    /** Judges, pre-deducts and records one buyer's reservation atomically. */
    ReservationOutcome reserve(ReserveStock command);

    /** Puts back the buckets Redis lost, from the ledger's view; one outcome per bucket, in order. */
    java.util.List<RestoreStock.Outcome> restore(RestoreStock command);

    /** Units still unreserved over all buckets; empty when the SKU is not preheated. */
    Optional<Long> remaining(long activityId, long skuId, int buckets);

    /** What each bucket's counter holds, in bucket order; empty when any bucket's key is missing. */
    Optional<java.util.List<Long>> remainingByBucket(long activityId, long skuId, int buckets);

    /** Gives a reservation's units back to its bucket, at most once per reservation. */
    RestockOutcome restock(Restock command);

    /**
     * The reservation Redis holds for the buyer on this SKU (split into {@code buckets}); empty when
     * they hold none, or while a click of theirs is still being served across buckets.
     */
    Optional<ReservationId> heldFor(long activityId, long skuId, int buckets, long userId);

    /** Whether the reservation is the one Redis holds for that buyer (the SKU has {@code buckets} buckets). */
    boolean isHeldBy(ReservationId id, long userId, int buckets);
}
