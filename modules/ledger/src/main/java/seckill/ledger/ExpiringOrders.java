package seckill.ledger;

import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.ledger.api.ExpiredOrder;
import seckill.ledger.api.OrderExpiry;
import seckill.ledger.sql.LedgerRows;
import seckill.redis.World;

/**
 * Expires overdue orders: per order, the compare-and-set from PENDING to TIMEOUT; its winner returns
 * the stock, logs the refill and queues the Redis refill in the outbox, in one short transaction
 * ({@link LedgerRows#expireOverdue}). Per world: the real ledger's orders, or the shadow ledger's.
 */
@ApplicationScoped
class ExpiringOrders implements OrderExpiry {

    private final LedgersByWorld.PerWorld<LedgerRows> rows;

    @Inject
    ExpiringOrders(LedgersByWorld ledgers) {
        this.rows = ledgers.each(LedgerRows::new);
    }

    @Override
    public List<ExpiredOrder> expireOverdue(World world, Instant now, int limit) {
        return rows.of(world).map(r -> r.expireOverdue(now, limit)).orElseGet(List::of);
    }
}
