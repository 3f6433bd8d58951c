package seckill.ledger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.ledger.api.LedgerHoldings;
import seckill.ledger.api.SkuHoldings;
import seckill.ledger.sql.LedgerRows;
import seckill.redis.World;

/**
 * Reads what the ledger holds of a SKU, for the launch to restore its buckets in Redis: the ledger of the
 * activity's world (a rehearsal's from the shadow ledger, docs/rehearsal.md).
 */
@ApplicationScoped
class ReadingHoldings implements LedgerHoldings {

    private final LedgersByWorld.PerWorld<LedgerRows> rows;

    @Inject
    ReadingHoldings(LedgersByWorld ledgers) {
        this.rows = ledgers.each(LedgerRows::new);
    }

    @Override
    public SkuHoldings holdings(long activityId, long skuId) {
        return rows.of(World.of(activityId)).orElseThrow(() -> new IllegalStateException("activity " + activityId
                + " is a rehearsal's and no rehearsal ledger is configured (seckill.rehearsal.db.url)"))
                .holdings(activityId, skuId);
    }
}
