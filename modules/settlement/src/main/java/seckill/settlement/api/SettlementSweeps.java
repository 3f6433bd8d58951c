package seckill.settlement.api;

/**
 * Runs the settlement sweeps now instead of waiting for their schedule: for operators, the drill and
 * tests. Each returns how much it did.
 */
public interface SettlementSweeps {

    /** Moves overdue pending orders to TIMEOUT, returning their stock. */
    int expireOverdue();

    /** Applies waiting outbox refills to Redis. */
    int relayRefills();

    /**
     * Resumes halted sales once Redis answers, no reservation event is in flight and reconciliation
     * of every live activity is clean. Returns whether sales are open afterwards.
     */
    boolean tryResumeSales();
}
