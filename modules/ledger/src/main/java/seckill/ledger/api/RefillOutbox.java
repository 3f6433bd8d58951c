package seckill.ledger.api;

import java.time.Instant;
import java.util.List;

import seckill.redis.World;

/**
 * The refill outbox (table stock_sync_outbox), which the ledger owns: every refill is written in the
 * ledger transaction it mirrors. Settlement's relay ({@code RelayingStockRefills}) reads it and
 * marks what it applied to Redis; readiness reports its backlog. Nobody else names the table.
 * <p>
 * One outbox per world (docs/rehearsal.md): the calls naming a {@link World} read and mark the outbox of that
 * world's ledger (for {@code REHEARSAL} without a shadow ledger: nothing pending, nothing marked); the calls
 * without one are the real world's, as before.
 */
public interface RefillOutbox {

    /** Real refills not yet applied to Redis with an id above {@code afterId}, oldest first (keyset paging). */
    default List<StockRefill> pendingRefills(long afterId, int limit) {
        return pendingRefills(World.REAL, afterId, limit);
    }

    default void refillApplied(long refillId, Instant at) {
        refillApplied(World.REAL, refillId, at);
    }

    default void refillAttemptFailed(long refillId) {
        refillAttemptFailed(World.REAL, refillId);
    }

    /** Real refills not yet applied to Redis. */
    default long refillBacklog() {
        return refillBacklog(World.REAL);
    }

    /** {@link #pendingRefills(long, int)} of the outbox of {@code world}. */
    List<StockRefill> pendingRefills(World world, long afterId, int limit);

    void refillApplied(World world, long refillId, Instant at);

    void refillAttemptFailed(World world, long refillId);

    /** Refills of {@code world} not yet applied to Redis (0 for {@code REHEARSAL} without a shadow ledger). */
    long refillBacklog(World world);
}
