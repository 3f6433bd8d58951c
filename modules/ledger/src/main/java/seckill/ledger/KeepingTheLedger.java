package seckill.ledger;

import java.time.Instant;
import java.util.List;

import io.helidon.dbclient.DbClient;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.ledger.api.ExpiredOrder;
import seckill.ledger.api.LedgerFigures;
import seckill.ledger.api.OrderLedger;
import seckill.ledger.api.Payment;
import seckill.ledger.api.PaymentResult;
import seckill.ledger.api.SettledUnits;
import seckill.ledger.api.SkuHoldings;
import seckill.ledger.api.StockRefill;
import seckill.ledger.sql.LedgerRows;

/** The ledger's door for settlement: payments, timeouts, the refill outbox and reconciliation figures. */
@ApplicationScoped
class KeepingTheLedger implements OrderLedger {

    private final DbClient db;

    @Inject
    KeepingTheLedger(DbClient db) {
        this.db = db;
    }

    private LedgerRows rows;

    @PostConstruct
    void init() {
        rows = new LedgerRows(db);
    }

    @Override
    public PaymentResult pay(Payment payment, Instant now) {
        return rows.pay(payment, now);
    }

    @Override
    public List<ExpiredOrder> expireOverdue(Instant now, int limit) {
        return rows.expireOverdue(now, limit);
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

    @Override
    public long refillBacklog() {
        return rows.refillBacklog();
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
    public SkuHoldings holdings(long activityId, long skuId) {
        return rows.holdings(activityId, skuId);
    }
}
