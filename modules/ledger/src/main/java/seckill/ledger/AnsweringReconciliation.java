package seckill.ledger;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.ledger.api.LedgerFigures;
import seckill.ledger.api.LedgerReconciliation;
import seckill.ledger.api.SettledUnits;
import seckill.ledger.api.StockRefill;
import seckill.ledger.sql.LedgerRows;
import seckill.redis.World;

/**
 * The ledger's side of reconciliation: reads the figures settlement compares with Redis, and puts
 * refills Redis lost back in the outbox. Per world: an activity's figures from the ledger of its id's world,
 * lost refills in the outbox of the world named (docs/rehearsal.md).
 */
@ApplicationScoped
class AnsweringReconciliation implements LedgerReconciliation {

    private final LedgersByWorld.PerWorld<LedgerRows> rows;

    @Inject
    AnsweringReconciliation(LedgersByWorld ledgers) {
        this.rows = ledgers.each(LedgerRows::new);
    }

    private LedgerRows of(long activityId) {
        World world = World.of(activityId);
        return rows.of(world).orElseThrow(() -> new IllegalStateException(
                "activity " + activityId + " is a rehearsal's and no shadow ledger is configured"));
    }

    @Override
    public LedgerFigures figures(long activityId, long skuId) {
        return of(activityId).figures(activityId, skuId);
    }

    @Override
    public SettledUnits settledAsOf(long activityId, long skuId, int bucket, long lastEvent, List<String> unsettled) {
        return of(activityId).settledAsOf(activityId, skuId, bucket, lastEvent, unsettled);
    }

    @Override
    public long appliedRefillUnits(long activityId, long skuId, int bucket) {
        return of(activityId).appliedRefillUnits(activityId, skuId, bucket);
    }

    @Override
    public List<StockRefill> appliedRefills(long activityId, long skuId, int bucket) {
        return of(activityId).appliedRefills(activityId, skuId, bucket);
    }

    @Override
    public int refillsLost(World world, List<Long> refillIds) {
        return rows.of(world).map(r -> r.refillsLost(refillIds)).orElse(0);
    }
}
