package seckill.ledger.api;

/**
 * The units of one stock bucket whose outcome the ledger holds as of a Redis snapshot: ordered,
 * and failed for good. Reconciliation adds the snapshot's unsettled units to them and compares
 * with what Redis says was taken.
 */
public record SettledUnits(long orderedUnits, long failedUnits) {

    public long total() {
        return orderedUnits + failedUnits;
    }
}
