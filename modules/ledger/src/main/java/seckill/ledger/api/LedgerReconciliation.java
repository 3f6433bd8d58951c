package seckill.ledger.api;

import java.util.List;

import seckill.redis.World;

/**
 * What settlement's reconciliation ({@code Reconciling}) asks of the ledger: a SKU's figures, the
 * units of a bucket settled as of a Redis snapshot, the refills of a bucket marked applied, and, for
 * those Redis turned out not to hold, putting them back in the outbox.
 * <p>
 * Per world (docs/rehearsal.md): a call naming an activity reads the ledger of that activity's world; the
 * refills Redis lost are named by outbox id, so {@link #refillsLost(World, List)} names the world (without
 * one, the real world's, as before). A rehearsal activity without a shadow ledger is refused
 * ({@link IllegalStateException}): settlement reconciles rehearsals only when the shadow ledger is configured.
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
    default int refillsLost(List<Long> refillIds) {
        return refillsLost(World.REAL, refillIds);
    }

    /** {@link #refillsLost(List)} in the outbox of {@code world} (0 for {@code REHEARSAL} without a shadow ledger). */
    int refillsLost(World world, List<Long> refillIds);
}
