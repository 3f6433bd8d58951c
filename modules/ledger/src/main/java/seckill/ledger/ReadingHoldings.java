package seckill.ledger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.ledger.api.LedgerHoldings;
import seckill.ledger.api.SkuHoldings;
import seckill.ledger.sql.LedgerRows;

/** Reads what the ledger holds of a SKU, for the launch to restore its buckets in Redis. */
@ApplicationScoped
class ReadingHoldings implements LedgerHoldings {

    private final LedgerRows rows;

    @Inject
    ReadingHoldings(LedgerRows rows) {
        this.rows = rows;
    }

    @Override
    public SkuHoldings holdings(long activityId, long skuId) {
        return rows.holdings(activityId, skuId);
    }
}
