package seckill.reservation.api;

import java.util.List;
import java.util.Optional;

/**
 * Reads the units Redis still holds unreserved for a SKU. Redis failures surface as
 * {@link ReservationUnavailable}.
 */
public interface RemainingStock {

    /** Units still unreserved over all buckets; empty when the SKU is not preheated. */
    Optional<Long> remaining(long activityId, long skuId, int buckets);

    /** What each bucket's counter holds, in bucket order; empty when any bucket's key is missing. */
    Optional<List<Long>> remainingByBucket(long activityId, long skuId, int buckets);
}
