package seckill.settlement.rules;

import java.util.List;
import java.util.Optional;

/**
 * Whether one stock bucket balances: what Redis says was taken from it ({@code share - remaining})
 * against what is accounted for ({@code settled in the ledger + unsettled in the stream - refilled
 * into Redis}). Both sides come from one Redis snapshot and a ledger read made after it and limited
 * to the events the snapshot had seen, so work in flight is counted exactly once and never shows as
 * a difference. Plain Java: the figures are handed in.
 *
 * @param bucket         the bucket's index
 * @param share          units the bucket was preheated with
 * @param remaining      units left in Redis
 * @param refilledUnits  units refills have put back into Redis
 * @param unsettledUnits units of events not yet acknowledged (pending or never delivered)
 * @param lostEvents     events pending in the consumer group but gone from the stream
 * @param settledUnits   units the ledger has ordered or failed among the snapshot's acknowledged events
 */
public record BucketBalance(int bucket, long share, long remaining, long refilledUnits, long unsettledUnits,
                            long lostEvents, long settledUnits) {

    /** Units Redis says are taken (net of refills). */
    public long reserved() {
        return share - remaining;
    }

    /** Units the ledger and the stream account for, net of refills. */
    public long accounted() {
        return settledUnits + unsettledUnits - refilledUnits;
    }

    /**
     * The first bucket that does not balance, described; empty when every bucket balances. With one
     * bucket the description names no bucket.
     */
    public static Optional<String> firstMismatch(List<BucketBalance> buckets) {
        boolean split = buckets.size() > 1;
        for (BucketBalance b : buckets) {
            String where = split ? "bucket " + b.bucket() + ": " : "";
            if (b.lostEvents() > 0) {
                return Optional.of(where + b.lostEvents() + " event(s) pending in the consumer group are gone from the stream");
            }
            if (b.reserved() != b.accounted()) {
                return Optional.of(where + "Redis reserved " + b.reserved() + " != settled " + b.settledUnits()
                        + " + pending " + b.unsettledUnits() + " - released " + b.refilledUnits());
            }
        }
        return Optional.empty();
    }
}
