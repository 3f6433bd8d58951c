package seckill.ledger.api;

import java.time.Instant;
import java.util.List;

/**
 * The ledger's door for the timeout sweep (settlement's {@code ExpiringUnpaidOrders}): the one
 * compare-and-set that moves an overdue order from PENDING to TIMEOUT; its winner returns the stock
 * and queues the Redis refill in the outbox in the same transaction.
 */
public interface OrderExpiry {

    /** Expires up to {@code limit} overdue pending real orders, each in its own short transaction. */
    default List<ExpiredOrder> expireOverdue(Instant now, int limit) {
        return expireOverdue(seckill.redis.World.REAL, now, limit);
    }

    /**
     * {@link #expireOverdue(Instant, int)} in the ledger of {@code world} (docs/rehearsal.md); nothing for
     * {@code REHEARSAL} without a shadow ledger.
     */
    List<ExpiredOrder> expireOverdue(seckill.redis.World world, Instant now, int limit);
}
