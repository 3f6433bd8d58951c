package seckill.ledger.api;

import java.time.Instant;
import java.util.List;

/**
 * The ledger's door for the timeout sweep (settlement's {@code ExpiringUnpaidOrders}): the one
 * compare-and-set that moves an overdue order from PENDING to TIMEOUT; its winner returns the stock
 * and queues the Redis refill in the outbox in the same transaction.
 */
public interface OrderExpiry {

    /** Expires up to {@code limit} overdue pending orders, each in its own short transaction. */
    List<ExpiredOrder> expireOverdue(Instant now, int limit);
}
