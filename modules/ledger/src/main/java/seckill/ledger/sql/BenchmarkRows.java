package seckill.ledger.sql;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbTransaction;
import seckill.reservation.api.EventPosition;
import seckill.reservation.api.ReservationEvent;
import seckill.reservation.api.ReservationId;

/** The settlement benchmark's reads and its ceiling writes (see {@code LedgerBenchmark}). */
public final class BenchmarkRows {

    private static final Duration PAYMENT_WINDOW = Duration.ofMinutes(15);

    private final DbClient db;

    public BenchmarkRows(DbClient db) {
        this.db = db;
    }

    public long available(long activityId, long skuId) {
        return db.execute().get("SELECT available FROM seckill_stock WHERE activity_id = ? AND sku_id = ?", activityId, skuId)
                .map(r -> ((Number) r.column(1).get()).longValue()).orElseThrow();
    }

    public long orders(long activityId) {
        return db.execute().get("SELECT COUNT(*) FROM seckill_order WHERE activity_id = ?", activityId)
                .map(r -> ((Number) r.column(1).get()).longValue()).orElse(0L);
    }

    public void writeDirectly(long activityId, long skuId, long firstUser, int from, int to, Instant now) {
        Map<String, ReservationEvent> events = new LinkedHashMap<>();
        for (int i = from; i < to; i++) {
            // numbered from the activity: no order number or reservation id meets another run's
            ReservationId id = new ReservationId(activityId, skuId, 0, activityId * 10_000_000L + i);
            events.put(id.toString(), new ReservationEvent(id, firstUser + i, 1, "c" + i, now,
                    new EventPosition("bench", "0-" + i), 1));
        }
        DbTransaction tx = db.transaction();
        try {
            OrderWriter.insertOrders(tx, events, activity -> PAYMENT_WINDOW, now, null);
            OrderWriter.insertDeductLogs(tx, events, now);
            OrderWriter.deductStock(tx, events.values());
            tx.commit();
        } catch (RuntimeException e) {
            tx.rollback();
            throw e;
        }
    }
}
