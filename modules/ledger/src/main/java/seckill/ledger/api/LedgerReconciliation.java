package seckill.ledger.api;

import java.util.List;

/**
 * What settlement's reconciliation ({@code Reconciling}) asks of the ledger: a SKU's figures, the
 * units of a bucket settled as of a Redis snapshot, the refills of a bucket marked applied, and, for
 * those Redis turned out not to hold, putting them back in the outbox.
 */
public interface LedgerReconciliation {

    LedgerFigures figures(long activityId, long skuId);

    /**
     * Units of bucket {@code bucket} of a SKU the ledger has settled (ordered or failed) among the
     * events at or before stream position {@code lastEvent}, leaving out the reservations in
     * {@code unsettled}; read in one statement, so it describes one moment of the ledger.
     */
    SettledUnits settledAsOf(long activityId, long skuId, int bucket, long lastEvent, List<String> unsettled);

    /** Units of the refills of one bucket marked applied (the bucket a reservation's units came from). */
    long appliedRefillUnits(long activityId, long skuId, int bucket);

    /** The refills of one bucket marked applied, oldest first. */
    List<StockRefill> appliedRefills(long activityId, long skuId, int bucket);

    /**
     * Refills marked applied that Redis turned out not to hold (a failover lost them): pending again,
     * so the relay applies them again. Returns how many were still marked applied.
     */
    int refillsLost(List<Long> refillIds);
}
