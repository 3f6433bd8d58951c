package seckill.ledger;

import java.time.Instant;

import io.helidon.dbclient.DbClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.ledger.api.LedgerBenchmark;
import seckill.ledger.sql.BenchmarkRows;

/** The settlement benchmark's door to the ledger. */
@ApplicationScoped
class MeasuringTheLedger implements LedgerBenchmark {

    private final DbClient db;
    private BenchmarkRows rows;

    @Inject
    MeasuringTheLedger(DbClient db) {
        this.db = db;
    }

    private BenchmarkRows rows() {
        if (rows == null) {
            rows = new BenchmarkRows(db);
        }
        return rows;
    }

    @Override
    public long available(long activityId, long skuId) {
        return rows().available(activityId, skuId);
    }

    @Override
    public long orders(long activityId) {
        return rows().orders(activityId);
    }

    @Override
    public void writeDirectly(long activityId, long skuId, long firstUser, int from, int to, Instant now) {
        rows().writeDirectly(activityId, skuId, firstUser, from, to, now);
    }
}
