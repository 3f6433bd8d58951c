package seckill.ledger;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.ledger.api.LedgerFigures;
import seckill.ledger.api.LedgerReconciliation;
import seckill.ledger.api.SettledUnits;
import seckill.ledger.api.StockRefill;
import seckill.ledger.sql.LedgerRows;

/**
 * The ledger's side of reconciliation: reads the figures settlement compares with Redis, and puts
 * refills Redis lost back in the outbox.
 */
@ApplicationScoped
class AnsweringReconciliation implements LedgerReconciliation {

    private final LedgerRows rows;

    @Inject
    AnsweringReconciliation(LedgerRows rows) {
        this.rows = rows;
    }

    @Override
    public LedgerFigures figures(long activityId, long skuId) {
        return rows.figures(activityId, skuId);
    }

    @Override
    public SettledUnits settledAsOf(long activityId, long skuId, int bucket, long lastEvent, List<String> unsettled) {
        return rows.settledAsOf(activityId, skuId, bucket, lastEvent, unsettled);
    }

    @Override
    public long appliedRefillUnits(long activityId, long skuId, int bucket) {
        return rows.appliedRefillUnits(activityId, skuId, bucket);
    }

    @Override
    public List<StockRefill> appliedRefills(long activityId, long skuId, int bucket) {
        return rows.appliedRefills(activityId, skuId, bucket);
    }

    @Override
    public int refillsLost(List<Long> refillIds) {
        return rows.refillsLost(refillIds);
    }
}
