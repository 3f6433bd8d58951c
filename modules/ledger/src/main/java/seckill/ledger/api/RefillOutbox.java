package seckill.ledger.api;

import java.time.Instant;
import java.util.List;

/**
 * The refill outbox (table stock_sync_outbox), which the ledger owns: every refill is written in the
 * ledger transaction it mirrors. Settlement's relay ({@code RelayingStockRefills}) reads it and
 * marks what it applied to Redis; readiness reports its backlog. Nobody else names the table.
 */
public interface RefillOutbox {

    /** Refills not yet applied to Redis with an id above {@code afterId}, oldest first (keyset paging). */
    List<StockRefill> pendingRefills(long afterId, int limit);

    void refillApplied(long refillId, Instant at);

    void refillAttemptFailed(long refillId);

    /** Refills not yet applied to Redis. */
    long refillBacklog();
}
