package seckill.settlement.api;

import seckill.redis.World;

/**
 * Runs the settlement sweeps now instead of waiting for their schedule: for operators, the drill and
 * tests. Each returns how much it did.
 */
public interface SettlementSweeps {

    /** Moves overdue pending real orders to TIMEOUT, returning their stock. */
    default int expireOverdue() {
        return expireOverdue(World.REAL);
    }

    /** Applies waiting real outbox refills to Redis. */
    default int relayRefills() {
        return relayRefills(World.REAL);
    }

    /**
     * {@link #expireOverdue()} in the ledger of {@code world} (docs/rehearsal.md): for {@code REHEARSAL}, the shadow
     * ledger's orders, 0 when no shadow ledger is configured.
     */
    int expireOverdue(World world);

    /** {@link #relayRefills()} from the outbox of {@code world}'s ledger to that world's keys. */
    int relayRefills(World world);

    /**
     * Resumes halted sales once Redis answers, no reservation event is in flight and reconciliation
     * of every live activity is clean. Returns whether sales are open afterwards.
     */
    default boolean tryResumeSales() {
        return tryResumeSales(World.REAL);
    }

    /**
     * {@link #tryResumeSales()} of {@code world}'s halt, on that world's own reconciliation (docs/rehearsal.md: one
     * halt per world). For {@code REHEARSAL} without a shadow ledger nothing is reconciled.
     */
    boolean tryResumeSales(World world);
}
