package seckill.ledger;

import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.ledger.api.RefillOutbox;
import seckill.ledger.api.StockRefill;
import seckill.ledger.sql.LedgerRows;
import seckill.redis.World;

/**
 * Hands the outbox's pending refills to settlement's relay and records what the relay did with each. Per world:
 * the real ledger's outbox, or the shadow ledger's (docs/rehearsal.md); a rehearsal without a shadow ledger has
 * nothing pending.
 */
@ApplicationScoped
class KeepingTheOutbox implements RefillOutbox {

    private final LedgersByWorld.PerWorld<LedgerRows> rows;

    @Inject
    KeepingTheOutbox(LedgersByWorld ledgers) {
        this.rows = ledgers.each(LedgerRows::new);
    }

    @Override
    public List<StockRefill> pendingRefills(World world, long afterId, int limit) {
        return rows.of(world).map(r -> r.pendingRefills(afterId, limit)).orElseGet(List::of);
    }

    @Override
    public void refillApplied(World world, long refillId, Instant at) {
        rows.of(world).ifPresent(r -> r.refillApplied(refillId, at));
    }

    @Override
    public void refillAttemptFailed(World world, long refillId) {
        rows.of(world).ifPresent(r -> r.refillAttemptFailed(refillId));
    }

    @Override
    public long refillBacklog(World world) {
        return rows.of(world).map(LedgerRows::refillBacklog).orElse(0L);
    }
}
