package seckill.ledger;

import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.ledger.api.RefillOutbox;
import seckill.ledger.api.StockRefill;
import seckill.ledger.sql.LedgerRows;

/** Hands the outbox's pending refills to settlement's relay and records what the relay did with each. */
@ApplicationScoped
class KeepingTheOutbox implements RefillOutbox {

    private final LedgerRows rows;

    @Inject
    KeepingTheOutbox(LedgerRows rows) {
        this.rows = rows;
    }

    @Override
    public List<StockRefill> pendingRefills(long afterId, int limit) {
        return rows.pendingRefills(afterId, limit);
    }

    @Override
    public void refillApplied(long refillId, Instant at) {
        rows.refillApplied(refillId, at);
    }

    @Override
    public void refillAttemptFailed(long refillId) {
        rows.refillAttemptFailed(refillId);
    }

    @Override
    public long refillBacklog() {
        return rows.refillBacklog();
    }
}
