package seckill.ledger.sql;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.LongFunction;
import java.util.stream.Stream;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbRow;
import io.helidon.dbclient.DbTransaction;
import seckill.ledger.api.LedgerUnavailable;
import seckill.ledger.rules.SettlementOutcome;
import seckill.reservation.api.ReservationEvent;

/**
 * Writes reservation events into the ledger. A batch is one short transaction: orders and deduct
 * log rows as multi-row inserts, then one conditional stock update per SKU (in the SKUs' order),
 * placed last so the hot stock row is locked for the shortest time, and locked only there: nothing
 * before it reads the stock row with a lock (the price is a plain read), so two batches of one SKU
 * queue on the row instead of deadlocking. A transaction InnoDB still chooses as a deadlock's victim
 * (another client's locks) is run again at once, a few times ({@link Transactions#retryingDeadlocks}),
 * before it is reported as the ledger being unavailable. No network call other than these statements
 * happens inside a transaction.
 */
public final class OrderWriter {

    private final DbClient db;

    public OrderWriter(DbClient db) {
        this.db = db;
    }

    /** Thrown when the ledger refuses a whole batch; the caller falls back to one by one. */
    public static final class BatchRefused extends RuntimeException {
        BatchRefused(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Writes all events in one transaction, skipping those already settled.
     *
     * @return how many new orders were committed
     * @throws BatchRefused when anything in the batch fails; nothing was committed then
     */
    public int writeBatch(List<ReservationEvent> events, LongFunction<Duration> paymentWindow, Instant now) {
        // by the id's text, made once per event (it goes into three statements; making it again
        // each time was the hottest of our methods in the purchase path's profile); a batch may
        // carry the same event twice after a reclaim: the first is kept
        Map<String, ReservationEvent> unique = new LinkedHashMap<>();
        events.forEach(e -> unique.putIfAbsent(e.id().toString(), e));
        try {
            // Nearly every batch holds events never settled. The order table's unique key on the
            // reservation refuses one that is already ordered, so the batch asks only the (small)
            // failure table first; asking the order table too, for every batch, was about a fifth of
            // MariaDB's CPU per order (docs/perf/README.md)
            // a deadlock's victim was rolled back whole: run again at once (Transactions.retryingDeadlocks),
            // never held against the events nor taken for the database being away
            return Transactions.retryingDeadlocks(
                    () -> write(new LinkedHashMap<>(unique), paymentWindow, now, OrderWriter::alreadyFailed));
        } catch (BatchRefused refused) {
            // an event already ordered (redelivered after a crash or a failover) or a real conflict:
            // once more, skipping every event already ordered; a conflict then refuses it again
            return Transactions.retryingDeadlocks(
                    () -> write(new LinkedHashMap<>(unique), paymentWindow, now, OrderWriter::alreadySettled));
        }
    }

    /** One transaction writing {@code toWrite} (by id text), less the reservations {@code settled} names. */
    private int write(Map<String, ReservationEvent> toWrite, LongFunction<Duration> paymentWindow, Instant now,
                      BiFunction<DbTransaction, Collection<String>, Set<String>> settled) {
        DbTransaction tx = begin();
        try {
            toWrite.keySet().removeAll(settled.apply(tx, toWrite.keySet()));
            if (!toWrite.isEmpty()) {
                insertOrders(tx, toWrite, paymentWindow, now, null);
                insertDeductLogs(tx, toWrite, now);
                deductStock(tx, toWrite.values());
            }
            tx.commit();
            return toWrite.size();
        } catch (RuntimeException e) {
            Transactions.rollbackQuietly(tx, e);
            if (LedgerUnavailable.isOutage(e)) {
                throw new LedgerUnavailable(e);
            }
            throw new BatchRefused("batch of " + toWrite.size() + " refused: " + e.getMessage(), e);
        }
    }

    /**
     * Writes one event in its own transaction and says what came of it. An order whose number (derived
     * from its reservation) is another order's already is written with a number of the ledger's own
     * ({@link OrderNumbers#fallback}): an order number never fails a reservation.
     *
     * @throws LedgerUnavailable when the database could not answer; nothing was decided then
     */
    public SettlementOutcome writeOne(ReservationEvent event, Duration paymentWindow, Instant now) {
        return Transactions.retryingDeadlocks(() -> writeOne(event, paymentWindow, now, false))
                // equal sequences in two buckets or SKUs (two instances under one node id) give equal numbers
                .or(() -> Transactions.retryingDeadlocks(() -> writeOne(event, paymentWindow, now, true)))
                .orElseThrow(() -> new IllegalStateException("a fallback order number was refused as taken"));
    }

    /** One attempt; empty when the derived order number was taken (never with {@code fallbackNumber}). */
    private Optional<SettlementOutcome> writeOne(ReservationEvent event, Duration paymentWindow, Instant now,
                                                 boolean fallbackNumber) {
        DbTransaction tx = begin();
        try {
            Map<String, ReservationEvent> one = Map.of(event.id().toString(), event);
            if (!alreadySettled(tx, one.keySet()).isEmpty()) {
                tx.commit();
                return Optional.of(new SettlementOutcome.AlreadySettled());
            }
            try {
                String number = fallbackNumber ? ledgerNumber(tx, event, now) : null;
                insertOrders(tx, one, activity -> paymentWindow, now, number);
            } catch (RuntimeException e) {
                String violated = violatedKey(e);
                if (violated == null) {
                    throw e;
                }
                tx.rollback();
                // the ledger itself says whether this reservation is settled: neither the message's
                // text (it quotes the duplicate value, which can be the buyer's own requestId) nor
                // the key it names decides that
                if (!inTransaction(fresh -> alreadySettled(fresh, one.keySet())).isEmpty()) {
                    return Optional.of(new SettlementOutcome.AlreadySettled());
                }
                if (violated.equals("uk_order_reservation")) {
                    // named, yet not there once asked: a concurrent writer rolled back; try again later
                    return Optional.of(new SettlementOutcome.Rejected(
                            "LEDGER_CONFLICT: uk_order_reservation, then no order"));
                }
                if (violated.equals("uk_order_no")) {
                    // another reservation's order has this number: numbered by the ledger instead. A fallback
                    // number taken can only be a row written by hand: refused for now, dead-lettered in the end
                    return fallbackNumber ? Optional.of(new SettlementOutcome.Rejected(
                            "LEDGER_CONFLICT: the ledger's own order number is taken")) : Optional.empty();
                }
                String reason = reasonFor(violated);
                recordFailure(event, reason, now, true);
                return Optional.of(new SettlementOutcome.Failed(reason));
            }
            insertDeductLogs(tx, one, now);
            if (tx.dml(OrderingSql.DEDUCT_STOCK, event.quantity(), event.id().activityId(), event.id().skuId(),
                    event.quantity()) != 1) {
                tx.rollback();
                return Optional.of(new SettlementOutcome.Rejected("LEDGER_STOCK_SHORT: the ledger has fewer than "
                        + event.quantity() + " units left"));
            }
            tx.commit();
            return Optional.of(new SettlementOutcome.Ordered());
        } catch (RuntimeException e) {
            Transactions.rollbackQuietly(tx, e);
            if (LedgerUnavailable.isOutage(e)) {
                throw new LedgerUnavailable(e);
            }
            return Optional.of(new SettlementOutcome.Rejected("LEDGER_REFUSED: " + firstLine(e)));
        }
    }

    /**
     * A number of the ledger's own for this order: a row of {@code seckill_order_number}, in the order's
     * transaction (rolled back with it, so a number is used by at most one committed order).
     */
    private static String ledgerNumber(DbTransaction tx, ReservationEvent event, Instant now) {
        tx.insert(OrderingSql.INSERT_ORDER_NUMBER, event.id().toString(), UtcTime.column(now));
        long counter = tx.get(OrderingSql.LAST_ORDER_NUMBER).map(row -> Columns.longOf(row, "id"))
                .orElseThrow(() -> new IllegalStateException("no order number from the ledger"));
        return OrderNumbers.fallback(seckill.redis.World.of(event.id().activityId()), event.reservedAt(), counter);
    }

    /**
     * Commits the reason a reservation can never be ordered and, when {@code refill}, the outbox row
     * that gives its units back to Redis and frees the buyer; both in one transaction, so a failure
     * is never recorded without its stock coming back.
     */
    public void recordFailure(ReservationEvent event, String reason, Instant now, boolean refill) {
        inTransaction(tx -> {
            insertFailure(tx, event, reason, now, refill);
            return null;
        });
    }

    /**
     * Gives up on a reservation the ledger keeps refusing: in one transaction, makes sure it has no
     * order (locking the order's unique-key slot, so none can be committed meanwhile) and records the
     * failure with its refill.
     *
     * @return false when an order exists after all; then nothing was written and the event is settled
     */
    public boolean deadLetter(ReservationEvent event, String reason, Instant now) {
        return inTransaction(tx -> {
            boolean ordered;
            try (Stream<DbRow> rows = tx.query(OrderingSql.LOCK_ORDER_OF_RESERVATION, event.id().toString())) {
                ordered = rows.findAny().isPresent();
            }
            if (!ordered) {
                insertFailure(tx, event, reason, now, true);
            }
            return !ordered;
        });
    }

    /** Counts one more refusal of a reservation by the ledger and returns how many there have been. */
    public int countRejection(ReservationEvent event, String reason, Instant now) {
        return inTransaction(tx -> {
            tx.dml(OrderingSql.COUNT_REJECTION, event.id().toString(), truncate(reason, 200), UtcTime.column(now));
            return tx.get(OrderingSql.SELECT_REJECTIONS, event.id().toString())
                    .map(row -> Columns.longOf(row, "attempts")).orElse(1L).intValue();
        });
    }

    /** One short transaction: committed when {@code work} returns, rolled back when it throws; outages classified. */
    private <T> T inTransaction(java.util.function.Function<DbTransaction, T> work) {
        return Transactions.retryingDeadlocks(() -> inTransactionOnce(work));
    }

    private <T> T inTransactionOnce(java.util.function.Function<DbTransaction, T> work) {
        DbTransaction tx = begin();
        try {
            T result = work.apply(tx);
            tx.commit();
            return result;
        } catch (RuntimeException e) {
            Transactions.rollbackQuietly(tx, e);
            throw LedgerUnavailable.isOutage(e) ? new LedgerUnavailable(e) : e;
        }
    }

    /** Whether the database answers at all. */
    public boolean answers() {
        try {
            db.execute().query(OrderingSql.PING).close();
            return true;
        } catch (RuntimeException e) {
            if (LedgerUnavailable.isOutage(e)) {
                return false;
            }
            throw e;
        }
    }

    private DbTransaction begin() {
        try {
            return db.transaction();
        } catch (RuntimeException e) {
            throw LedgerUnavailable.isOutage(e) ? new LedgerUnavailable(e) : e;
        }
    }

    private static void insertFailure(DbTransaction tx, ReservationEvent event, String reason, Instant now, boolean refill) {
        tx.dml(OrderingSql.INSERT_FAILURE, event.id().toString(), event.id().activityId(),
                event.id().skuId(), event.userId(), event.quantity(), truncate(reason, 200), UtcTime.column(now),
                event.position().ordinal());
        if (refill) {
            tx.dml(OrderingSql.INSERT_REFILL, event.id().activityId(), event.id().skuId(), event.id().bucket(),
                    event.id().toString(), event.userId(), event.quantity(), 1, UtcTime.column(now));
        }
    }

    private static String firstLine(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String message = String.valueOf(t.getMessage());
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    private static String truncate(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max);
    }

    /**
     * The reservations among these that are recorded as failed: never to be ordered. A locking read
     * (see {@link OrderingSql#lockFailedReservations}): a plain one would miss a dead letter being
     * committed meanwhile, and the order written after it would return a unit that was also sold.
     */
    private static Set<String> alreadyFailed(DbTransaction tx, Collection<String> reservationIds) {
        return reservationsFound(tx, OrderingSql.lockFailedReservations(reservationIds.size()), reservationIds.toArray());
    }

    /** The reservations among these that are ordered or recorded as failed (the failures read locking). */
    private static Set<String> alreadySettled(DbTransaction tx, Collection<String> reservationIds) {
        Set<String> settled = reservationsFound(tx, OrderingSql.selectOrderedReservations(reservationIds.size()),
                reservationIds.toArray());
        settled.addAll(alreadyFailed(tx, reservationIds));
        return settled;
    }

    private static Set<String> reservationsFound(DbTransaction tx, String sql, Object[] params) {
        try (Stream<DbRow> rows = tx.query(sql, params)) {
            Set<String> found = new HashSet<>();
            rows.forEach(row -> found.add(Columns.textOf(row, "reservation_id")));
            return found;
        }
    }

    /** {@code events}: each event by its id's text; {@code number}: the one event's order number, null: derived. */
    static void insertOrders(DbTransaction tx, Map<String, ReservationEvent> events,
                                     LongFunction<Duration> paymentWindow, Instant now, String number) {
        List<Object> params = new ArrayList<>(events.size() * OrderingSql.ORDER_PARAMS);
        // the batch's times are the same for every row (and the deadline for every row of one
        // activity): formatted once, not per row (the profile of a settlement run showed the formatting)
        String nowColumn = UtcTime.column(now);
        Map<Long, String> deadlines = new HashMap<>();
        // nearly always one SKU a batch (a batch is one bucket's): one read of its price
        Map<List<Long>, String[]> prices = new HashMap<>();
        for (Map.Entry<String, ReservationEvent> entry : events.entrySet()) {
            ReservationEvent e = entry.getValue();
            params.add(number != null ? number : OrderNumbers.of(e.id(), e.reservedAt()));
            params.add(entry.getKey());
            params.add(scopedRequestId(e));
            params.add(e.id().activityId());
            params.add(e.id().skuId());
            params.add(e.userId());
            params.add(e.quantity());
            params.add(deadlines.computeIfAbsent(e.id().activityId(),
                    activity -> UtcTime.column(now.plus(paymentWindow.apply(activity)))));
            params.add(nowColumn);
            params.add(nowColumn);
            params.add(e.position().ordinal());
            String[] price = prices.computeIfAbsent(List.of(e.id().activityId(), e.id().skuId()),
                    sku -> priceOf(tx, sku.get(0), sku.get(1)));
            params.add(price[0]);
            params.add(price[1]);
        }
        tx.insert(OrderingSql.ORDER_COLUMNS + OrderingSql.rows(OrderingSql.ORDER_ROW, events.size()), params.toArray());
    }

    /** The SKU's price amount and currency as text, '' for none (a plain read: it takes no lock, see ORDER_ROW). */
    private static String[] priceOf(DbTransaction tx, long activityId, long skuId) {
        return tx.get(OrderingSql.SELECT_SKU_PRICE, activityId, skuId)
                .map(row -> new String[] {Columns.textOf(row, "price_amount"), Columns.textOf(row, "price_currency")})
                .orElse(new String[] {"", ""});
    }

    /**
     * The client's requestId is an idempotency key of one buyer for one SKU of one activity, as the
     * reservation script dedupes (one reservation per buyer and SKU); scoping it by all three keeps
     * another buyer's, another SKU's or another sale's identical id from colliding on the unique key,
     * so a reservation answered 202 is never refused for its requestId. The separator {@code /} is
     * outside a requestId's characters, so the text is unambiguous and never equals a row written
     * before SKUs were part of it ({@code activity:user:requestId}).
     */
    static String scopedRequestId(ReservationEvent e) {
        return e.id().activityId() + "/" + e.id().skuId() + "/" + e.userId() + "/" + e.requestId();
    }

    static void insertDeductLogs(DbTransaction tx, Map<String, ReservationEvent> events, Instant now) {
        List<Object> params = new ArrayList<>(events.size() * OrderingSql.LOG_PARAMS);
        String nowColumn = UtcTime.column(now);
        for (Map.Entry<String, ReservationEvent> entry : events.entrySet()) {
            ReservationEvent e = entry.getValue();
            params.add(e.id().activityId());
            params.add(e.id().skuId());
            params.add(e.quantity());
            params.add(entry.getKey());
            params.add(nowColumn);
        }
        tx.insert(OrderingSql.LOG_COLUMNS + OrderingSql.rows(OrderingSql.DEDUCT_LOG_ROW, events.size()), params.toArray());
    }

    static void deductStock(DbTransaction tx, Collection<ReservationEvent> events) {
        // by SKU, so two batches of the same SKUs take their stock rows in one order (a batch is nearly
        // always one SKU's; one that is not must not deadlock with another taking them the other way)
        Map<List<Long>, Long> perSku = new java.util.TreeMap<>(
                java.util.Comparator.<List<Long>>comparingLong(sku -> sku.get(0)).thenComparingLong(sku -> sku.get(1)));
        for (ReservationEvent e : events) {
            perSku.merge(List.of(e.id().activityId(), e.id().skuId()), (long) e.quantity(), Long::sum);
        }
        perSku.forEach((sku, quantity) -> {
            long updated = tx.dml(OrderingSql.DEDUCT_STOCK, quantity, sku.get(0), sku.get(1), quantity);
            if (updated != 1) {
                throw new IllegalStateException("ledger has less than " + quantity + " units of " + sku);
            }
        });
    }

    /**
     * Name of the unique key a statement violated ({@code "unknown"} when the message names none), or
     * null when the failure was something else. The key is the one the database names at the end of
     * its message ({@code ... for key 'uk_order_buyer'} on MariaDB, {@code 'seckill_order.uk_order_buyer'}
     * on MySQL 8), never a name found elsewhere in it: the message also quotes the duplicate value.
     */
    static String violatedKey(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof java.sql.SQLIntegrityConstraintViolationException || isDuplicateKey(t)) {
                return namedKey(String.valueOf(t.getMessage()));
            }
        }
        return null;
    }

    private static String namedKey(String message) {
        java.util.regex.Matcher named = NAMED_KEY.matcher(message);
        if (!named.find()) {
            return "unknown";
        }
        String key = named.group(1);
        return key.substring(key.lastIndexOf('.') + 1);
    }

    /** The key name closing a duplicate-key message; anchored at the end, where no quoted value can reach. */
    private static final java.util.regex.Pattern NAMED_KEY = java.util.regex.Pattern.compile("for key '([^']*)'\\s*$");

    private static boolean isDuplicateKey(Throwable t) {
        return t instanceof java.sql.SQLException sql && sql.getErrorCode() == 1062;
    }

    private static String reasonFor(String violatedKey) {
        return switch (violatedKey) {
            case "uk_order_buyer" -> "BUYER_ALREADY_ORDERED: the buyer already has an order for this SKU";
            case "uk_order_request" -> "REQUEST_ID_REUSED: the requestId belongs to another order";
            case "uk_order_no" -> "ORDER_NUMBER_TAKEN: the order number is already used";
            default -> "LEDGER_CONFLICT: " + violatedKey;
        };
    }
}
