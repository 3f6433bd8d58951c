package seckill.ledger.sql;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import seckill.ledger.api.LedgerAudit;

/**
 * The ledger's figures for an auditor (see {@link LedgerAudit}): plain reads of the ledger's tables,
 * on the auditor's own connection.
 */
public final class AuditRows implements LedgerAudit {

    private final Rows rows;

    public AuditRows(Rows rows) {
        this.rows = rows;
    }

    @Override
    public List<SkuStock> stock(long activityId) {
        List<SkuStock> skus = new ArrayList<>();
        for (String[] r : rows.query(5,
                "SELECT sku_id, total, available, per_user_limit, buckets FROM seckill_stock WHERE activity_id = ?",
                activityId)) {
            skus.add(new SkuStock(number(r[0]), number(r[1]), number(r[2]), (int) number(r[3]), (int) number(r[4])));
        }
        return skus;
    }

    @Override
    public ActivityFigures activity(long activityId) {
        String[] orders = rows.query(4, """
                SELECT COUNT(*), COALESCE(SUM(status = 0), 0),
                       COALESCE(SUM(CASE WHEN status = 1 THEN quantity ELSE 0 END), 0), COALESCE(SUM(status = 2), 0)
                FROM seckill_order WHERE activity_id = ?""", activityId).getFirst();
        long failedReservations = scalar("SELECT COUNT(*) FROM seckill_reservation_failure WHERE activity_id = ?",
                activityId);
        String[] stock = rows.query(2,
                "SELECT COALESCE(SUM(available), 0), COALESCE(SUM(total), 0) FROM seckill_stock WHERE activity_id = ?",
                activityId).getFirst();
        long pendingRefills = scalar("SELECT COUNT(*) FROM stock_sync_outbox WHERE activity_id = ? AND status = 0",
                activityId);
        return new ActivityFigures(number(orders[0]), number(orders[1]), number(orders[2]), number(orders[3]),
                failedReservations, number(stock[0]), number(stock[1]), pendingRefills);
    }

    @Override
    public List<String> orderNumbers(long activityId) {
        return texts("SELECT order_no FROM seckill_order WHERE activity_id = ? ORDER BY id", activityId);
    }

    @Override
    public List<String> settledReservations(long activityId) {
        List<String> settled = new ArrayList<>(
                texts("SELECT reservation_id FROM seckill_order WHERE activity_id = ?", activityId));
        settled.addAll(texts("SELECT reservation_id FROM seckill_reservation_failure WHERE activity_id = ?", activityId));
        return settled;
    }

    @Override
    public SkuFigures figures(long activityId, long skuId, int perUserLimit) {
        long orders = scalar("SELECT COUNT(*) FROM seckill_order WHERE activity_id = ? AND sku_id = ?", activityId, skuId);
        long orderedUnits = scalar("SELECT COALESCE(SUM(quantity), 0) FROM seckill_order WHERE activity_id = ? AND sku_id = ?",
                activityId, skuId);
        long buyers = scalar("SELECT COUNT(DISTINCT user_id) FROM seckill_order WHERE activity_id = ? AND sku_id = ?",
                activityId, skuId);
        // an expired order (status 2) gave its unit back, which may be sold again: only live orders hold stock
        long liveUnits = scalar("""
                SELECT COALESCE(SUM(quantity), 0) FROM seckill_order
                WHERE activity_id = ? AND sku_id = ? AND status <> 2""", activityId, skuId);
        long deducted = scalar("""
                SELECT COALESCE(SUM(quantity), 0) FROM seckill_stock_log
                WHERE activity_id = ? AND sku_id = ? AND change_type = 1""", activityId, skuId);
        long refilled = scalar("""
                SELECT COALESCE(SUM(quantity), 0) FROM seckill_stock_log
                WHERE activity_id = ? AND sku_id = ? AND change_type = 2""", activityId, skuId);
        long failedUnits = scalar("""
                SELECT COALESCE(SUM(quantity), 0) FROM seckill_reservation_failure WHERE activity_id = ? AND sku_id = ?""",
                activityId, skuId);
        long failedReservations = scalar("""
                SELECT COUNT(*) FROM seckill_reservation_failure WHERE activity_id = ? AND sku_id = ?""",
                activityId, skuId);
        long orphanDeducts = scalar("""
                SELECT COUNT(*) FROM seckill_stock_log l LEFT JOIN seckill_order o ON o.reservation_id = l.biz_id
                WHERE l.activity_id = ? AND l.sku_id = ? AND l.change_type = 1 AND o.id IS NULL""", activityId, skuId);
        long ordersWithoutDeduct = scalar("""
                SELECT COUNT(*) FROM seckill_order o LEFT JOIN seckill_stock_log l
                  ON l.biz_id = o.reservation_id AND l.change_type = 1
                WHERE o.activity_id = ? AND o.sku_id = ? AND l.id IS NULL""", activityId, skuId);
        long buyersOverLimit = scalar("""
                SELECT COUNT(*) FROM (SELECT user_id FROM seckill_order WHERE activity_id = ? AND sku_id = ?
                                      GROUP BY user_id HAVING SUM(quantity) > ?) t""", activityId, skuId, perUserLimit);
        long releasedUnits = scalar("""
                SELECT COALESCE(SUM(quantity), 0) FROM stock_sync_outbox
                WHERE activity_id = ? AND sku_id = ? AND status = 1""", activityId, skuId);
        long releasedBuyers = scalar("""
                SELECT COUNT(*) FROM stock_sync_outbox
                WHERE activity_id = ? AND sku_id = ? AND status = 1 AND release_buyer = 1""", activityId, skuId);
        return new SkuFigures(orders, orderedUnits, buyers, liveUnits, deducted, refilled, failedUnits, failedReservations,
                orphanDeducts, ordersWithoutDeduct, buyersOverLimit, releasedUnits, releasedBuyers);
    }

    private long scalar(String sql, Object... params) {
        List<String[]> result = rows.query(1, sql, params);
        return result.isEmpty() ? 0 : number(result.getFirst()[0]);
    }

    private List<String> texts(String sql, Object... params) {
        return rows.query(1, sql, params).stream().map(r -> r[0]).toList();
    }

    /** A count or sum as the auditor's connection gives it (a DECIMAL sum has no fraction); NULL as 0. */
    private static long number(String text) {
        return text == null ? 0 : new BigDecimal(text).longValueExact();
    }
}
