package seckill.settlement.api;

/**
 * Settlement's part of a rehearsal's purge (issue #34, docs/rehearsal.md "The purge"), in the shadow database
 * only: the rehearsal's reconciliation rows and the payments of its orders. Runs before the ledger's purge of
 * the orders (the payments are found by their orders' numbers).
 */
public interface ReconciliationPurge {

    /**
     * Deletes the rehearsal's settlement rows; idempotent.
     *
     * @return how many rows were deleted
     * @throws IllegalArgumentException for a real activity id
     * @throws IllegalStateException    when no shadow ledger is configured
     */
    long purge(long rehearsalId);
}
