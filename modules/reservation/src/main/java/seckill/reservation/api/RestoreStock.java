package seckill.reservation.api;

import java.time.Instant;
import java.util.List;

/**
 * Command: put back into Redis the buckets of a SKU that Redis lost, from the ledger's view. Per
 * bucket the ledger tells the units taken (ordered or failed), the units refilled (and the reservations they came
 * from) and the last event it recorded; {@code holders} are the buyers with orders, who must find their reservation again.
 * Buckets Redis still has are left alone.
 */
public record RestoreStock(long activityId, long skuId, long stock, int buckets, Instant keysExpireAt,
                           List<BucketLedger> ledger, List<Holder> holders) {

    /**
     * The ledger's figures of one bucket; {@code lastEvent} is an {@link EventPosition#ordinal()};
     * {@code refilled} the reservations whose refills the ledger marks applied (their units are
     * {@code refilledUnits}), so Redis knows them refilled and never refills them twice.
     */
    public record BucketLedger(int bucket, long takenUnits, long refilledUnits, long lastEvent, List<String> refilled) {

        public BucketLedger(int bucket, long takenUnits, long refilledUnits, long lastEvent) {
            this(bucket, takenUnits, refilledUnits, lastEvent, List.of());
        }
    }

    /** A buyer who holds an order, and its reservation id. */
    public record Holder(long userId, String reservationId) {
    }

    /** What came of one bucket. */
    public enum Outcome {
        /** Put back from the ledger. */
        RESTORED,
        /** Redis still had it; left alone. */
        PRESENT,
        /** Its stock was gone but its stream was not: left to an operator. */
        STREAM_PRESENT
    }
}
