package seckill.ledger.api;

import java.time.Instant;
import java.util.List;

/**
 * The ordering module's door for everything that changes an order after it exists: payment and
 * timeout (each a compare-and-set on the status; the timeout's winner returns the stock in the same
 * transaction and queues a Redis refill in the outbox), the outbox itself, and the figures
 * reconciliation compares.
 */
public interface OrderLedger {

    /**
     * Records {@code payment} and moves its order from PENDING to PAID if it is not past its deadline
     * at {@code now} (the same comparison the timeout sweep makes, so the two never both win), in one
     * transaction: the payment row (seckill_payment, keyed by the payment id) commits with the status
     * change or not at all.
     */
    PaymentResult pay(Payment payment, Instant now);

    /** Expires up to {@code limit} overdue pending orders, each in its own short transaction. */
    List<ExpiredOrder> expireOverdue(Instant now, int limit);

    /** Refills not yet applied to Redis with an id above {@code afterId}, oldest first (keyset paging). */
    List<StockRefill> pendingRefills(long afterId, int limit);

    void refillApplied(long refillId, Instant at);

    void refillAttemptFailed(long refillId);

    /** Units of the refills of one bucket marked applied (the bucket a reservation's units came from). */
    long appliedRefillUnits(long activityId, long skuId, int bucket);

    /** The refills of one bucket marked applied, oldest first. */
    List<StockRefill> appliedRefills(long activityId, long skuId, int bucket);

    /**
     * Refills marked applied that Redis turned out not to hold (a failover lost them): pending again,
     * so the relay applies them again. Returns how many were still marked applied.
     */
    int refillsLost(List<Long> refillIds);

    long refillBacklog();

    LedgerFigures figures(long activityId, long skuId);


    /**
     * Units of bucket {@code bucket} of a SKU the ledger has settled (ordered or failed) among the
     * events at or before stream position {@code lastEvent}, leaving out the reservations in
     * {@code unsettled}; read in one statement, so it describes one moment of the ledger.
     */
    SettledUnits settledAsOf(long activityId, long skuId, int bucket, long lastEvent, java.util.List<String> unsettled);

    /** The ledger's view of a SKU's stock and holders, to restore its buckets in Redis. */
    SkuHoldings holdings(long activityId, long skuId);
}
