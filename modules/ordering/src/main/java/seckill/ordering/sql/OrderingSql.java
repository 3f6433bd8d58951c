package seckill.ordering.sql;

import java.util.Collections;

/** Every SQL statement of the ordering module. Kept to what MySQL 8 and MariaDB 10.11 both accept. */
final class OrderingSql {

    private OrderingSql() {
    }

    static final String INSERT_ACTIVITY = """
            INSERT INTO seckill_activity (name, starts_at, ends_at, payment_window_seconds, created_at)
            VALUES (?, ?, ?, ?, ?)""";

    static final String LAST_INSERT_ID = "SELECT LAST_INSERT_ID() AS id";

    static final String INSERT_STOCK = """
            INSERT INTO seckill_stock (activity_id, sku_id, total, available, per_user_limit, buckets)
            VALUES (?, ?, ?, ?, ?, ?)""";

    static final String SELECT_ACTIVITY = """
            SELECT id, name, starts_at, ends_at, payment_window_seconds FROM seckill_activity WHERE id = ?""";

    static final String SELECT_STOCK_LINES = """
            SELECT sku_id, total, per_user_limit, buckets FROM seckill_stock WHERE activity_id = ? ORDER BY sku_id""";

    static String selectOrderedReservations(int count) {
        return "SELECT reservation_id FROM seckill_order WHERE reservation_id IN (" + placeholders(count) + ")";
    }

    static final String ORDER_COLUMNS = """
            INSERT INTO seckill_order (order_no, reservation_id, request_id, activity_id, sku_id, user_id, quantity,
                                       status, expire_at, created_at, updated_at)
            VALUES """;
    static final String ORDER_ROW = "(?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)";
    static final int ORDER_PARAMS = 10;

    static final String LOG_COLUMNS = """
            INSERT INTO seckill_stock_log (activity_id, sku_id, change_type, quantity, biz_id, created_at)
            VALUES """;
    static final String DEDUCT_LOG_ROW = "(?, ?, 1, ?, ?, ?)";
    static final int LOG_PARAMS = 5;

    /** The ledger's guard: takes stock only while enough is left. */
    static final String DEDUCT_STOCK = """
            UPDATE seckill_stock SET available = available - ?
            WHERE activity_id = ? AND sku_id = ? AND available >= ?""";

    static final String INSERT_FAILURE = """
            INSERT INTO seckill_reservation_failure (reservation_id, activity_id, sku_id, user_id, quantity, reason, failed_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON DUPLICATE KEY UPDATE reason = reason""";

    static final String SELECT_ORDER_BY_RESERVATION = """
            SELECT order_no, reservation_id, activity_id, sku_id, user_id, quantity, status, expire_at, created_at
            FROM seckill_order WHERE reservation_id = ?""";

    static final String SELECT_FAILURE = "SELECT reason FROM seckill_reservation_failure WHERE reservation_id = ?";

    static String rows(String row, int count) {
        return String.join(", ", Collections.nCopies(count, row));
    }

    private static String placeholders(int count) {
        return String.join(", ", Collections.nCopies(count, "?"));
    }
}
