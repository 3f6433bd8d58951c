package seckill.ledger;

import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.ledger.api.ExpiredOrder;
import seckill.ledger.api.OrderExpiry;
import seckill.ledger.sql.LedgerRows;

/**
 * Expires overdue orders: per order, the compare-and-set from PENDING to TIMEOUT; its winner returns
 * the stock, logs the refill and queues the Redis refill in the outbox, in one short transaction
 * ({@link LedgerRows#expireOverdue}).
 */
@ApplicationScoped
class ExpiringOrders implements OrderExpiry {

    private final LedgerRows rows;

    @Inject
    ExpiringOrders(LedgerRows rows) {
        this.rows = rows;
    }

    @Override
    public List<ExpiredOrder> expireOverdue(Instant now, int limit) {
        return rows.expireOverdue(now, limit);
    }
}
