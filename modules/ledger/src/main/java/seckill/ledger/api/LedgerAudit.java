package seckill.ledger.api;

import java.util.List;

/**
 * What an auditor (the drill's {@code InvariantCheck}) asks of the ledger, so it names no table: each
 * SKU's stock row, and one SKU's figures read straight from the tables, read-only, never from the
 * workers' code paths. The auditor brings its own connection ({@link Rows}); this module brings the
 * questions. Units, not rows, unless a figure says orders, buyers or rows.
 */
public interface LedgerAudit {

    /**
     * How the auditor reads the ledger: runs a read-only query on a connection of its own and returns
     * every row as the numbers of its first {@code columns} columns, in order (SQL {@code NULL} as 0).
     */
    @FunctionalInterface
    interface Rows {
        List<long[]> query(int columns, String sql, Object... params);
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

    /** The activity's stock rows, one per SKU. */
    List<SkuStock> stock(long activityId);

    /** One SKU's figures; {@code perUserLimit} is the limit {@code buyersOverLimit} is counted against. */
    SkuFigures figures(long activityId, long skuId, int perUserLimit);

    /** The audit over the ledger the auditor reads with {@code rows}. */
    static LedgerAudit over(Rows rows) {
        return new seckill.ledger.sql.AuditRows(rows);
    }
}
