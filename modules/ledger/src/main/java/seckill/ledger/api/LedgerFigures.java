package seckill.ledger.api;

/**
 * The ledger's figures for one SKU, read in one go for reconciliation. Units, not rows:
 * {@code orderedUnits} counts every order whatever its status, {@code failedUnits} reservations that
 * can never be ordered, {@code appliedRefillUnits} outbox refills already applied to Redis and
 * {@code pendingRefillUnits} those still waiting.
 */
public record LedgerFigures(long total, long available, long deducted, long refilled, long orderedUnits,
                            long failedUnits, long appliedRefillUnits, long pendingRefillUnits, int buckets) {

    /** MySQL's own equation: every unit is on the shelf, deducted, or deducted and refilled. */
    public boolean ledgerBalances() {
        return available == total - deducted + refilled;
    }

    public boolean oversold() {
        return available < 0 || deducted - refilled > total || orderedUnits > total + refilled;
    }
}
