package seckill.ledger.api;

import java.util.List;

/**
 * What an auditor (the drill's {@code InvariantCheck}, the drill waiting for its sale to settle, the
 * chaos runner waiting for quiet) asks of the ledger, so it names no table: each SKU's stock row, one
 * SKU's figures, an activity's figures, its orders and its settled reservations, read straight from
 * the tables, read-only, never from the workers' code paths. The auditor brings its own connection
 * ({@link Rows}); this module brings the questions. Units, not rows, unless a figure says orders,
 * buyers or rows.
 */
public interface LedgerAudit {

    /**
     * How the auditor reads the ledger: runs a read-only query on a connection of its own and returns
     * every row as the values of its first {@code columns} columns, in order, as text (a number as its
     * decimal digits, SQL {@code NULL} as {@code null}).
     */
    @FunctionalInterface
    interface Rows {
        List<String[]> query(int columns, String sql, Object... params);
    }

    /** A SKU's stock row: its total, what is on the shelf, the per-buyer limit and its buckets. */
    record SkuStock(long skuId, long total, long available, int perUserLimit, int buckets) {
    }

    /**
     * One SKU's ledger figures: {@code orders} (rows, any status), {@code orderedUnits} (any status),
     * {@code buyers} (distinct buyers with an order), {@code liveUnits} (orders not expired: expired
     * ones gave their units back), {@code deducted} and {@code refilled} (stock log), {@code failedUnits}
     * and {@code failedReservations} (reservations that can never be ordered), {@code orphanDeducts}
     * (deduct log rows without their order), {@code ordersWithoutDeduct}, {@code buyersOverLimit}
     * (buyers holding more than the limit), {@code releasedUnits} and {@code releasedBuyers} (outbox
     * refills applied to Redis, and those of them that released the buyer).
     */
    record SkuFigures(long orders, long orderedUnits, long buyers, long liveUnits, long deducted, long refilled,
                      long failedUnits, long failedReservations, long orphanDeducts, long ordersWithoutDeduct,
                      long buyersOverLimit, long releasedUnits, long releasedBuyers) {
    }

    /**
     * An activity's figures over all its SKUs: {@code orders} (rows, any status), {@code unpaidOrders}
     * (still awaiting payment), {@code paidUnits}, {@code expiredOrders} (timed out),
     * {@code failedReservations}, {@code available} and {@code total} (its stock rows summed) and
     * {@code pendingRefills} (outbox refills not yet applied to Redis).
     */
    record ActivityFigures(long orders, long unpaidOrders, long paidUnits, long expiredOrders, long failedReservations,
                           long available, long total, long pendingRefills) {

        /** Nothing left to settle: no order awaits payment and no refill waits for Redis. */
        public boolean quiet() {
            return unpaidOrders == 0 && pendingRefills == 0;
        }
    }

    /** The activity's stock rows, one per SKU. */
    List<SkuStock> stock(long activityId);

    /** One SKU's figures; {@code perUserLimit} is the limit {@code buyersOverLimit} is counted against. */
    SkuFigures figures(long activityId, long skuId, int perUserLimit);

    /** An activity's figures, over all its SKUs. */
    ActivityFigures activity(long activityId);

    /** The activity's order numbers, oldest order first. */
    List<String> orderNumbers(long activityId);

    /** The reservations of the activity the ledger has settled: each became an order or a failure. */
    List<String> settledReservations(long activityId);

    /** The audit over the ledger the auditor reads with {@code rows}. */
    static LedgerAudit over(Rows rows) {
        return new seckill.ledger.sql.AuditRows(rows);
    }
}
