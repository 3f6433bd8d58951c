package seckill.ledger.sql;

import java.util.Collections;

/** Every SQL statement of the ledger module. Kept to what MySQL 8 and MariaDB 10.11 both accept. */
final class OrderingSql {

    private OrderingSql() {
    }

    static final String INSERT_ACTIVITY = """
            INSERT INTO seckill_activity (name, starts_at, ends_at, payment_window_seconds, created_at)
            VALUES (?, ?, ?, ?, ?)""";

    static final String LAST_INSERT_ID = "SELECT LAST_INSERT_ID() AS id";

    static final String SELECT_LEDGER_ID = "SELECT ledger_id FROM seckill_ledger WHERE id = 1";

    static final String SELECT_LEDGER_BOUND = "SELECT COUNT(*) AS n FROM seckill_ledger WHERE id = 1 AND bound_at IS NOT NULL";

    static final String MARK_LEDGER_BOUND = "UPDATE seckill_ledger SET bound_at = ? WHERE id = 1 AND bound_at IS NULL";

    static final String INSERT_STOCK = """
            INSERT INTO seckill_stock (activity_id, sku_id, total, available, per_user_limit, buckets, name, price_amount,
                                       price_currency, picture)
            VALUES (?, ?, ?, ?, ?, ?, NULLIF(?, ''), NULLIF(?, ''), NULLIF(?, ''), NULLIF(?, ''))""";

    static final String SELECT_ACTIVITY = """
            SELECT id, name, starts_at, ends_at, payment_window_seconds FROM seckill_activity WHERE id = ?""";

    static final String SELECT_STOCK_LINES = """
            SELECT sku_id, total, per_user_limit, buckets, COALESCE(name, '') AS name,
                   COALESCE(CAST(price_amount AS CHAR), '') AS price_amount, COALESCE(price_currency, '') AS price_currency,
                   COALESCE(picture, '') AS picture
            FROM seckill_stock WHERE activity_id = ? ORDER BY sku_id""";

    /** Reservations recorded as failed (their units went back): never to be ordered. */
    static String selectFailedReservations(int count) {
        return "SELECT reservation_id FROM seckill_reservation_failure WHERE reservation_id IN (" + placeholders(count) + ")";
    }

    /**
     * The same, as a locking read: it waits for a failure being recorded and keeps one from being
     * recorded until commit. A writer that is about to insert orders asks this, so a dead letter of
     * another instance (which locks the order's slot, then records the failure) and this order can
     * never both commit: one waits for the other, or the database breaks the deadlock.
     */
    static String lockFailedReservations(int count) {
        return selectFailedReservations(count) + " LOCK IN SHARE MODE";
    }

    /** Reservations among these that have an order. */
    static String selectOrderedReservations(int count) {
        return "SELECT reservation_id FROM seckill_order WHERE reservation_id IN (" + placeholders(count) + ")";
    }

    /** Locks the order's unique-key slot (a gap lock when absent) so no order can appear until commit. */
    static final String LOCK_ORDER_OF_RESERVATION = "SELECT reservation_id FROM seckill_order WHERE reservation_id = ? FOR UPDATE";

    static final String COUNT_REJECTION = """
            INSERT INTO seckill_reservation_rejection (reservation_id, attempts, last_reason, updated_at)
            VALUES (?, 1, ?, ?)
            ON DUPLICATE KEY UPDATE attempts = attempts + 1, last_reason = VALUES(last_reason), updated_at = VALUES(updated_at)""";

    static final String SELECT_REJECTIONS = "SELECT attempts FROM seckill_reservation_rejection WHERE reservation_id = ?";

    static final String PING = "SELECT 1";

    static final String ORDER_COLUMNS = """
            INSERT INTO seckill_order (order_no, reservation_id, request_id, activity_id, sku_id, user_id, quantity,
                                       status, expire_at, created_at, updated_at, event_position, price_amount,
                                       price_currency)
            VALUES """;
    /**
     * The order's price is its stock row's ({@link #SELECT_SKU_PRICE}): the price it was sold at (issue #33),
     * '' for none. Not a sub-select here: in an INSERT, InnoDB reads a sub-select's rows with a shared
     * lock, so every batch held its SKU's stock row shared until its stock update wanted it exclusively,
     * and two batches of one SKU deadlocked upgrading (docs/design.md, "Two batches of one SKU").
     */
    static final String ORDER_ROW = "(?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, NULLIF(?, ''), NULLIF(?, ''))";
    static final int ORDER_PARAMS = 13;

    /**
     * A SKU's price, as text ('' for none), by a plain (consistent, non-locking) read: a price is
     * written with its stock row and never changed, so no lock is needed to read the one it is sold at.
     */
    static final String SELECT_SKU_PRICE = """
            SELECT COALESCE(CAST(price_amount AS CHAR), '') AS price_amount, COALESCE(price_currency, '') AS price_currency
            FROM seckill_stock WHERE activity_id = ? AND sku_id = ?""";

    /** A number of the ledger's own for one order (see OrderNumbers.fallback); read back by LAST_INSERT_ID on the same connection. */
    static final String INSERT_ORDER_NUMBER = "INSERT INTO seckill_order_number (reservation_id, created_at) VALUES (?, ?)";
    static final String LAST_ORDER_NUMBER = "SELECT LAST_INSERT_ID() AS id";

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
            INSERT INTO seckill_reservation_failure (reservation_id, activity_id, sku_id, user_id, quantity, reason, failed_at,
                                                     event_position)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON DUPLICATE KEY UPDATE reason = reason""";

    static final String SELECT_ORDER_BY_RESERVATION = """
            SELECT order_no, reservation_id, activity_id, sku_id, user_id, quantity, status, expire_at, created_at,
                   COALESCE(CAST(price_amount AS CHAR), '') AS price_amount, COALESCE(price_currency, '') AS price_currency
            FROM seckill_order WHERE reservation_id = ?""";

    static final String SELECT_ORDERS_OF_BUYER = """
            SELECT order_no, reservation_id, activity_id, sku_id, user_id, quantity, status, expire_at, created_at,
                   COALESCE(CAST(price_amount AS CHAR), '') AS price_amount, COALESCE(price_currency, '') AS price_currency
            FROM seckill_order WHERE activity_id = ? AND user_id = ? ORDER BY sku_id""";

    static final String SELECT_FAILURES_OF_BUYER = """
            SELECT reservation_id, sku_id, quantity, reason FROM seckill_reservation_failure
            WHERE activity_id = ? AND user_id = ? ORDER BY sku_id""";

    static final String SELECT_FAILURE = "SELECT reason FROM seckill_reservation_failure WHERE reservation_id = ? AND user_id = ?";

    // ---- support's trace of one reservation (TraceRows); nullable columns as text, '' for NULL

    static final String TRACE_ORDER = """
            SELECT order_no, reservation_id, activity_id, sku_id, user_id, quantity, status, expire_at, created_at,
                   updated_at, COALESCE(payment_id, '') AS payment_id, COALESCE(CAST(paid_at AS CHAR), '') AS paid_at,
                   COALESCE(CAST(event_position AS CHAR), '') AS event_position,
                   COALESCE(CAST(price_amount AS CHAR), '') AS price_amount, COALESCE(price_currency, '') AS price_currency
            FROM seckill_order WHERE reservation_id = ?""";

    static final String TRACE_FAILURE = """
            SELECT user_id, quantity, reason, failed_at, COALESCE(CAST(event_position AS CHAR), '') AS event_position
            FROM seckill_reservation_failure WHERE reservation_id = ?""";

    static final String TRACE_REJECTIONS = """
            SELECT attempts, last_reason, updated_at FROM seckill_reservation_rejection WHERE reservation_id = ?""";

    static final String TRACE_REFILL = """
            SELECT bucket, user_id, quantity, release_buyer, status, attempts, created_at,
                   COALESCE(CAST(applied_at AS CHAR), '') AS applied_at
            FROM stock_sync_outbox WHERE reservation_id = ? AND change_type = 2""";

    static final String SELECT_ACTIVITIES_ENDING_AFTER = "SELECT id FROM seckill_activity WHERE ends_at > ? ORDER BY id";

    static final String INSERT_REFILL = """
            INSERT INTO stock_sync_outbox (activity_id, sku_id, bucket, reservation_id, user_id, quantity, change_type,
                                           release_buyer, status, attempts, created_at)
            VALUES (?, ?, ?, ?, ?, ?, 2, ?, 0, 0, ?)
            ON DUPLICATE KEY UPDATE attempts = attempts""";

    // ---- payment and timeout: the status compare-and-set decides

    // the deadline is the mirror of EXPIRE_ORDER's: at one instant exactly one of the two can match
    static final String PAY_ORDER = """
            UPDATE seckill_order SET status = 1, payment_id = ?, paid_at = ?, updated_at = ?
            WHERE order_no = ? AND status = 0 AND expire_at >= ?""";

    /** What a payment of the order must be: its unit price times its quantity; empty columns when it has none. */
    static final String SELECT_ORDER_PRICE = """
            SELECT COALESCE(CAST(price_amount * quantity AS CHAR), '') AS due, COALESCE(price_currency, '') AS currency
            FROM seckill_order WHERE order_no = ?""";

    static final String SELECT_ORDER_FOR_PAYMENT = """
            SELECT status, COALESCE(payment_id, '') AS payment_id, CASE WHEN expire_at < ? THEN 1 ELSE 0 END AS overdue
            FROM seckill_order WHERE order_no = ? FOR UPDATE""";

    // seckill_payment (created by the settlement module's changelog) is written here because the
    // payment transaction writes it with the order's status; its primary key is the payment id, so the
    // database, not a look-up before it, decides that one payment id is recorded for one order.
    // IGNORE, not ON DUPLICATE KEY UPDATE: on a duplicate both take a shared lock, but the update then
    // wants an exclusive one, and two callbacks waiting on the same new id deadlock upgrading; every
    // value is checked before it gets here (amount scale 2 within DECIMAL(14, 2), currency 3 letters)
    static final String RECORD_PAYMENT = """
            INSERT IGNORE INTO seckill_payment (payment_id, order_no, amount, currency, paid_at, outcome, received_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)""";

    static final String SELECT_PAYMENT_ORDER = "SELECT order_no FROM seckill_payment WHERE payment_id = ? LOCK IN SHARE MODE";

    static final String SELECT_OVERDUE = """
            SELECT order_no, reservation_id, activity_id, sku_id, user_id, quantity FROM seckill_order
            WHERE status = 0 AND expire_at < ? ORDER BY expire_at LIMIT ?""";

    static final String EXPIRE_ORDER = """
            UPDATE seckill_order SET status = 2, updated_at = ? WHERE order_no = ? AND status = 0 AND expire_at < ?""";

    static final String REFILL_STOCK = """
            UPDATE seckill_stock SET available = available + ? WHERE activity_id = ? AND sku_id = ?""";

    static final String REFILL_LOG = """
            INSERT INTO seckill_stock_log (activity_id, sku_id, change_type, quantity, biz_id, created_at)
            VALUES (?, ?, 2, ?, ?, ?)""";

    // ---- outbox

    static final String SELECT_PENDING_REFILLS = """
            SELECT id, activity_id, sku_id, bucket, reservation_id, user_id, quantity, release_buyer
            FROM stock_sync_outbox WHERE status = 0 AND id > ? ORDER BY id LIMIT ?""";

    static final String MARK_REFILL_APPLIED = "UPDATE stock_sync_outbox SET status = 1, applied_at = ? WHERE id = ? AND status = 0";

    static final String COUNT_REFILL_ATTEMPT = "UPDATE stock_sync_outbox SET attempts = attempts + 1 WHERE id = ?";

    static final String SUM_APPLIED_REFILLS_OF_BUCKET = """
            SELECT COALESCE(SUM(quantity), 0) AS units FROM stock_sync_outbox
            WHERE activity_id = ? AND sku_id = ? AND bucket = ? AND status = 1""";

    static final String SELECT_APPLIED_REFILLS_OF_BUCKET = """
            SELECT id, activity_id, sku_id, bucket, reservation_id, user_id, quantity, release_buyer
            FROM stock_sync_outbox WHERE activity_id = ? AND sku_id = ? AND bucket = ? AND status = 1 ORDER BY id""";

    // only a row still marked applied goes back: the relay applies it again, idempotently by its reservation id
    static final String MARK_REFILL_PENDING_AGAIN = """
            UPDATE stock_sync_outbox SET status = 0, applied_at = NULL WHERE id = ? AND status = 1""";

    static final String COUNT_REFILL_BACKLOG = "SELECT COUNT(*) AS n FROM stock_sync_outbox WHERE status = 0";

    // ---- reconciliation figures of one SKU, one statement so they describe one moment

    static final String SKU_FIGURES = """
            SELECT s.total, s.available, s.buckets,
              (SELECT COALESCE(SUM(quantity), 0) FROM seckill_stock_log
                 WHERE activity_id = s.activity_id AND sku_id = s.sku_id AND change_type = 1) AS deducted,
              (SELECT COALESCE(SUM(quantity), 0) FROM seckill_stock_log
                 WHERE activity_id = s.activity_id AND sku_id = s.sku_id AND change_type = 2) AS refilled,
              (SELECT COALESCE(SUM(quantity), 0) FROM seckill_order
                 WHERE activity_id = s.activity_id AND sku_id = s.sku_id) AS ordered_units,
              (SELECT COALESCE(SUM(quantity), 0) FROM seckill_reservation_failure
                 WHERE activity_id = s.activity_id AND sku_id = s.sku_id) AS failed_units,
              (SELECT COALESCE(SUM(quantity), 0) FROM stock_sync_outbox
                 WHERE activity_id = s.activity_id AND sku_id = s.sku_id AND status = 1) AS applied_refill_units,
              (SELECT COALESCE(SUM(quantity), 0) FROM stock_sync_outbox
                 WHERE activity_id = s.activity_id AND sku_id = s.sku_id AND status = 0) AS pending_refill_units
            FROM seckill_stock s WHERE s.activity_id = ? AND s.sku_id = ?""";

    // the bucket is the third part of a reservation id: <activity>-<sku>-<bucket>-<sequence>
    private static final String BUCKET_OF_ID = "CAST(SUBSTRING_INDEX(SUBSTRING_INDEX(reservation_id, '-', 3), '-', -1) AS UNSIGNED)";

    static final String BUCKET_FIGURES = """
            SELECT bucket, SUM(ordered) AS ordered_units, SUM(failed) AS failed_units, SUM(applied) AS applied_refill_units,
                   MAX(position) AS last_event
            FROM (
              SELECT %1$s AS bucket, quantity AS ordered, 0 AS failed, 0 AS applied, COALESCE(event_position, 0) AS position
                FROM seckill_order WHERE activity_id = ? AND sku_id = ?
              UNION ALL
              SELECT %1$s, 0, quantity, 0, COALESCE(event_position, 0)
                FROM seckill_reservation_failure WHERE activity_id = ? AND sku_id = ?
              UNION ALL
              SELECT bucket, 0, 0, quantity, 0 FROM stock_sync_outbox WHERE activity_id = ? AND sku_id = ? AND status = 1
            ) units GROUP BY bucket ORDER BY bucket""".formatted(BUCKET_OF_ID);

    /**
     * Units of one bucket the ledger holds as of a Redis snapshot: orders and failures of events at
     * or before the snapshot's last stream entry, leaving out {@code excluded} reservations (the
     * snapshot counts those as pending). Rows written before event positions were kept count as seen.
     */
    /** The bucket's settled units up to an event; with {@code among} ids, only those reservations'. */
    static String bucketUnitsAsOf(int among) {
        String onlyAmong = among == 0 ? "" : " AND reservation_id IN (" + placeholders(among) + ")";
        String where = "activity_id = ? AND sku_id = ? AND %s = ? AND COALESCE(event_position, 0) <= ?".formatted(BUCKET_OF_ID)
                + onlyAmong;
        return "SELECT (SELECT COALESCE(SUM(quantity), 0) FROM seckill_order WHERE " + where + ") AS ordered_units,"
                + " (SELECT COALESCE(SUM(quantity), 0) FROM seckill_reservation_failure WHERE " + where + ") AS failed_units";
    }

    static final String INSERT_ACTIVITY_REQUEST = """
            INSERT INTO seckill_activity_request (idempotency_key, fingerprint, activity_id, created_at) VALUES (?, ?, ?, ?)""";

    static final String SELECT_ACTIVITY_REQUEST = """
            SELECT fingerprint, activity_id FROM seckill_activity_request WHERE idempotency_key = ?""";

    static final String SELECT_APPLIED_REFILLS_OF_SKU = """
            SELECT bucket, reservation_id, quantity FROM stock_sync_outbox
            WHERE activity_id = ? AND sku_id = ? AND status = 1 ORDER BY id""";

    static final String SELECT_HOLDERS = """
            SELECT user_id, reservation_id FROM seckill_order WHERE activity_id = ? AND sku_id = ? ORDER BY id""";

    static String rows(String row, int count) {
        return String.join(", ", Collections.nCopies(count, row));
    }

    // the waiting line's turns left (issue #33): the highest place kept, its time with it (left_at first: MySQL
    // assigns left to right, so it still compares the old place)
    static final String RECORD_TURN_LEFT = """
            INSERT INTO seckill_line_turn_left (activity_id, user_id, place, left_at) VALUES (?, ?, ?, ?)
            ON DUPLICATE KEY UPDATE left_at = IF(place < VALUES(place), VALUES(left_at), left_at),
                                    place = GREATEST(place, VALUES(place))""";

    static final String SELECT_TURN_LEFT = "SELECT place FROM seckill_line_turn_left WHERE activity_id = ? AND user_id = ?";

    private static String placeholders(int count) {
        return String.join(", ", Collections.nCopies(count, "?"));
    }
}
