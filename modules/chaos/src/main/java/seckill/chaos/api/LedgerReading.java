package seckill.chaos.api;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Plain SQL on the ledger's tables (schema: the ledger module's Liquibase changelog), read-only. */
final class LedgerReading {

    record Order(String reservationId, String requestId, long skuId, long userId, int quantity, int status,
                 String orderNo) {
    }

    record Failure(String reservationId, long skuId, long userId, int quantity) {
    }

    /** {@code appliedAt}: when the service marked it applied (its own clock; null: not applied, or unknown). */
    record Refill(String reservationId, long skuId, int quantity, int status, java.time.Instant appliedAt) {

        Refill(String reservationId, long skuId, int quantity, int status) {
            this(reservationId, skuId, quantity, status, null);
        }
    }

    record Stock(long skuId, long total, int buckets) {
    }

    /** A PAID order (status 1) and the payment that paid it: the order's own {@code payment_id}, else an audit row's. */
    record Paid(String orderNo, String reservationId, long userId, String paymentId) {
    }

    /** A row of {@code seckill_payment} (the settlement changelog's audit of accepted callbacks). */
    record PaymentRow(String paymentId, String orderNo, String amount, String outcome) {
    }

    private final Connection db;

    LedgerReading(Connection db) {
        this.db = db;
    }

    List<Order> orders(long activityId) {
        return query("SELECT reservation_id, request_id, sku_id, user_id, quantity, status, order_no FROM seckill_order"
                + " WHERE activity_id = ?", activityId, r -> new Order(r.getString(1), r.getString(2), r.getLong(3),
                r.getLong(4), r.getInt(5), r.getInt(6), r.getString(7)));
    }

    List<Failure> failures(long activityId) {
        return query("SELECT reservation_id, sku_id, user_id, quantity FROM seckill_reservation_failure"
                + " WHERE activity_id = ?", activityId, r -> new Failure(r.getString(1), r.getLong(2), r.getLong(3),
                r.getInt(4)));
    }

    List<Refill> refills(long activityId) {
        return query("SELECT reservation_id, sku_id, quantity, status, CAST(applied_at AS CHAR) FROM stock_sync_outbox"
                + " WHERE activity_id = ?", activityId, r -> new Refill(r.getString(1), r.getLong(2), r.getInt(3),
                r.getInt(4), utc(r.getString(5))));
    }

    /** A {@code DATETIME} the ledger holds as UTC wall time ({@code 2026-12-02 01:00:00.123}); null stays null. */
    static java.time.Instant utc(String datetime) {
        if (datetime == null || datetime.isBlank()) {
            return null;
        }
        return java.time.LocalDateTime.parse(datetime.trim().replace(' ', 'T')).toInstant(java.time.ZoneOffset.UTC);
    }

    List<Stock> stock(long activityId) {
        return query("SELECT sku_id, total, buckets FROM seckill_stock WHERE activity_id = ?", activityId,
                r -> new Stock(r.getLong(1), r.getLong(2), r.getInt(3)));
    }

    List<Paid> paid(long activityId) {
        return query("SELECT o.order_no, o.reservation_id, o.user_id, COALESCE(o.payment_id, (SELECT MIN(p.payment_id)"
                + " FROM seckill_payment p WHERE p.order_no = o.order_no AND p.outcome = 'PAID'))"
                + " FROM seckill_order o WHERE o.activity_id = ? AND o.status = 1", activityId,
                r -> new Paid(r.getString(1), r.getString(2), r.getLong(3), r.getString(4)));
    }

    /** The audit row a payment id left, if any. */
    java.util.Optional<PaymentRow> payment(String paymentId) {
        try (PreparedStatement s = db.prepareStatement(
                "SELECT payment_id, order_no, amount, outcome FROM seckill_payment WHERE payment_id = ?")) {
            s.setString(1, paymentId);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? java.util.Optional.of(new PaymentRow(r.getString(1), r.getString(2),
                        r.getString(3), r.getString(4))) : java.util.Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the ledger: " + e.getMessage(), e);
        }
    }

    private interface Row<T> {
        T map(ResultSet r) throws SQLException;
    }

    private <T> List<T> query(String sql, long activityId, Row<T> row) {
        try (PreparedStatement s = db.prepareStatement(sql)) {
            s.setLong(1, activityId);
            try (ResultSet r = s.executeQuery()) {
                List<T> all = new ArrayList<>();
                while (r.next()) {
                    all.add(row.map(r));
                }
                return all;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the ledger: " + e.getMessage(), e);
        }
    }
}
