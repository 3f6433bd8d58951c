package seckill.ledger.sql;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbRow;
import io.helidon.dbclient.DbTransaction;
import seckill.ledger.api.AmountDue;
import seckill.ledger.api.ExpiredOrder;
import seckill.ledger.api.BucketFigures;
import seckill.ledger.api.LedgerFigures;
import seckill.ledger.api.Payment;
import seckill.ledger.api.PaymentResult;
import seckill.ledger.api.SettledUnits;
import seckill.ledger.api.SkuHoldings;
import seckill.ledger.api.StockRefill;
import seckill.reservation.api.ReservationId;

/**
 * The ledger's changes after an order exists. Payment and timeout race on the same row and only the
 * status compare-and-set decides; the timeout's winner returns the stock, logs the refill (the unique
 * {@code (biz_id, change_type)} makes a second refill impossible) and queues the Redis refill in the
 * outbox, all in one short transaction.
 */
public final class LedgerRows {

    /** Reservation ids per statement: far below any driver's limit on placeholders (65,535). */
    private static final int UNSETTLED_SLICE = 1_000;

    private final DbClient db;

    public LedgerRows(DbClient db) {
        this.db = db;
    }

    /**
     * One transaction: the status compare-and-set (pending and not past its deadline at {@code now}),
     * else a locking read of why not, then the payment's row. The row's primary key is the payment id:
     * a row already there for another order rolls the whole transaction back, status change included.
     * A repeat of a recorded payment changes nothing and is answered from the order as it stands.
     */
    public PaymentResult pay(Payment payment, Instant now) {
        return Transactions.retryingDeadlocks(() -> payOnce(payment, now));
    }

    private PaymentResult payOnce(Payment payment, Instant now) {
        String orderNo = payment.orderNo();
        DbTransaction tx = db.transaction();
        try {
            PaymentResult result;
            String outcome;
            if (tx.dml(OrderingSql.PAY_ORDER, payment.paymentId(), UtcTime.column(payment.paidAt()),
                    UtcTime.column(now), orderNo, UtcTime.column(now)) == 1) {
                result = new PaymentResult.Paid(orderNo);
                outcome = "PAID";
            } else {
                Optional<DbRow> row = tx.get(OrderingSql.SELECT_ORDER_FOR_PAYMENT, UtcTime.column(now), orderNo);
                if (row.isEmpty()) {
                    tx.rollback();
                    return new PaymentResult.UnknownOrder(orderNo);
                }
                int status = Columns.intOf(row.get(), "status");
                String paidBy = Columns.textOf(row.get(), "payment_id");
                if (status == 1) {
                    result = new PaymentResult.AlreadyPaid(orderNo, paidBy);
                    outcome = paidBy.equals(payment.paymentId()) ? "PAID" : "DUPLICATE";
                } else if (status == 2 || Columns.intOf(row.get(), "overdue") == 1) {
                    // pending past its deadline: the sweep has not come yet, but the timeout has won
                    result = new PaymentResult.Expired(orderNo);
                    outcome = "ORDER_EXPIRED";
                } else {
                    throw new IllegalStateException("order " + orderNo + " is pending but was not updated");
                }
            }
            tx.dml(OrderingSql.RECORD_PAYMENT, payment.paymentId(), orderNo, payment.amount(), payment.currency(),
                    UtcTime.column(payment.paidAt()), outcome, UtcTime.column(now));
            String recordedFor = tx.get(OrderingSql.SELECT_PAYMENT_ORDER, payment.paymentId())
                    .map(r -> Columns.textOf(r, "order_no")).orElseThrow();
            if (!recordedFor.equals(orderNo)) {
                tx.rollback();
                return new PaymentResult.PaymentIdUsed(orderNo, payment.paymentId(), recordedFor);
            }
            tx.commit();
            return result;
        } catch (RuntimeException e) {
            Transactions.rollbackQuietly(tx, e);
            throw e;
        }
    }

    /** The order's price times its quantity, from its row. */
    public AmountDue amountDue(String orderNo) {
        return db.execute().get(OrderingSql.SELECT_ORDER_PRICE, orderNo)
                .<AmountDue>map(row -> Columns.textOf(row, "due").isEmpty() ? new AmountDue.NotPriced()
                        : new AmountDue.Priced(new java.math.BigDecimal(Columns.textOf(row, "due")),
                        Columns.textOf(row, "currency")))
                .orElseGet(AmountDue.NoOrder::new);
    }

    public List<ExpiredOrder> expireOverdue(Instant now, int limit) {
        List<DbRow> overdue;
        try (Stream<DbRow> rows = db.execute().query(OrderingSql.SELECT_OVERDUE, UtcTime.column(now), limit)) {
            overdue = rows.toList();
        }
        List<ExpiredOrder> expired = new ArrayList<>();
        for (DbRow row : overdue) {
            Transactions.retryingDeadlocks(() -> expireOne(row, now)).ifPresent(expired::add);
        }
        return expired;
    }

    private Optional<ExpiredOrder> expireOne(DbRow row, Instant now) {
        String orderNo = Columns.textOf(row, "order_no");
        String reservationId = Columns.textOf(row, "reservation_id");
        long activityId = Columns.longOf(row, "activity_id");
        long skuId = Columns.longOf(row, "sku_id");
        long userId = Columns.longOf(row, "user_id");
        int quantity = Columns.intOf(row, "quantity");
        int bucket = ReservationId.parse(reservationId).map(ReservationId::bucket).orElse(0);
        DbTransaction tx = db.transaction();
        try {
            if (tx.dml(OrderingSql.EXPIRE_ORDER, UtcTime.column(now), orderNo, UtcTime.column(now)) != 1) {
                // paid meanwhile, or another instance's sweep won
                tx.rollback();
                return Optional.empty();
            }
            tx.insert(OrderingSql.REFILL_LOG, activityId, skuId, quantity, reservationId, UtcTime.column(now));
            tx.dml(OrderingSql.INSERT_REFILL, activityId, skuId, bucket, reservationId, userId, quantity, 0,
                    UtcTime.column(now));
            tx.dml(OrderingSql.REFILL_STOCK, quantity, activityId, skuId);
            tx.commit();
            return Optional.of(new ExpiredOrder(orderNo, reservationId, activityId, skuId, quantity));
        } catch (RuntimeException e) {
            Transactions.rollbackQuietly(tx, e);
            throw e;
        }
    }

    public List<StockRefill> pendingRefills(long afterId, int limit) {
        try (Stream<DbRow> rows = db.execute().query(OrderingSql.SELECT_PENDING_REFILLS, afterId, limit)) {
            return rows.map(r -> new StockRefill(Columns.longOf(r, "id"), Columns.longOf(r, "activity_id"),
                    Columns.longOf(r, "sku_id"), Columns.intOf(r, "bucket"), Columns.textOf(r, "reservation_id"),
                    Columns.longOf(r, "user_id"), Columns.intOf(r, "quantity"), Columns.intOf(r, "release_buyer") == 1))
                    .toList();
        }
    }

    public void refillApplied(long refillId, Instant at) {
        db.execute().dml(OrderingSql.MARK_REFILL_APPLIED, UtcTime.column(at), refillId);
    }

    public void refillAttemptFailed(long refillId) {
        db.execute().dml(OrderingSql.COUNT_REFILL_ATTEMPT, refillId);
    }

    public long appliedRefillUnits(long activityId, long skuId, int bucket) {
        return db.execute().get(OrderingSql.SUM_APPLIED_REFILLS_OF_BUCKET, activityId, skuId, bucket)
                .map(r -> Columns.longOf(r, "units")).orElse(0L);
    }

    public List<StockRefill> appliedRefills(long activityId, long skuId, int bucket) {
        try (Stream<DbRow> rows = db.execute().query(OrderingSql.SELECT_APPLIED_REFILLS_OF_BUCKET, activityId, skuId,
                bucket)) {
            return rows.map(r -> new StockRefill(Columns.longOf(r, "id"), Columns.longOf(r, "activity_id"),
                    Columns.longOf(r, "sku_id"), Columns.intOf(r, "bucket"), Columns.textOf(r, "reservation_id"),
                    Columns.longOf(r, "user_id"), Columns.intOf(r, "quantity"), Columns.intOf(r, "release_buyer") == 1))
                    .toList();
        }
    }

    public int refillsLost(List<Long> refillIds) {
        int pending = 0;
        for (long id : refillIds) {
            pending += (int) db.execute().dml(OrderingSql.MARK_REFILL_PENDING_AGAIN, id);
        }
        return pending;
    }

    public long refillBacklog() {
        return db.execute().get(OrderingSql.COUNT_REFILL_BACKLOG).map(r -> Columns.longOf(r, "n")).orElse(0L);
    }

    public LedgerFigures figures(long activityId, long skuId) {
        DbRow r = db.execute().get(OrderingSql.SKU_FIGURES, activityId, skuId)
                .orElseThrow(() -> new IllegalArgumentException("no stock row for " + activityId + "/" + skuId));
        return new LedgerFigures(Columns.longOf(r, "total"), Columns.longOf(r, "available"), Columns.longOf(r, "deducted"),
                Columns.longOf(r, "refilled"), Columns.longOf(r, "ordered_units"), Columns.longOf(r, "failed_units"),
                Columns.longOf(r, "applied_refill_units"), Columns.longOf(r, "pending_refill_units"),
                Columns.intOf(r, "buckets"));
    }

    public List<BucketFigures> figuresByBucket(long activityId, long skuId) {
        try (Stream<DbRow> rows = db.execute().query(OrderingSql.BUCKET_FIGURES, activityId, skuId, activityId, skuId,
                activityId, skuId)) {
            return rows.map(r -> new BucketFigures(Columns.intOf(r, "bucket"), Columns.longOf(r, "ordered_units"),
                    Columns.longOf(r, "failed_units"), Columns.longOf(r, "applied_refill_units"),
                    Columns.longOf(r, "last_event"))).toList();
        }
    }

    /**
     * The units settled (ordered, dead-lettered) from the bucket's events up to {@code lastEvent},
     * less those of the {@code unsettled} reservations (counted as in flight by the caller). However
     * many those are: everything up to the event, then the unsettled ones found settled, subtracted
     * slice by slice, all in one repeatable-read transaction so every read sees the same instant (an
     * order committed between two reads would otherwise be added by none and subtracted by one).
     */
    public SettledUnits settledAsOf(long activityId, long skuId, int bucket, long lastEvent, List<String> listed) {
        // each reservation subtracted once, as NOT IN did, even if two slices would both name it
        List<String> unsettled = List.copyOf(new java.util.LinkedHashSet<>(listed));
        DbTransaction tx = db.transaction();
        try {
            SettledUnits settled = unitsAsOf(tx, List.of(activityId, skuId, bucket, lastEvent), List.of());
            for (int from = 0; from < unsettled.size(); from += UNSETTLED_SLICE) {
                SettledUnits among = unitsAsOf(tx, List.of(activityId, skuId, bucket, lastEvent),
                        unsettled.subList(from, Math.min(unsettled.size(), from + UNSETTLED_SLICE)));
                settled = new SettledUnits(settled.orderedUnits() - among.orderedUnits(),
                        settled.failedUnits() - among.failedUnits());
            }
            tx.commit();
            return settled;
        } catch (RuntimeException e) {
            Transactions.rollbackQuietly(tx, e);
            throw e;
        }
    }

    private static SettledUnits unitsAsOf(DbTransaction tx, List<Object> bucket, List<String> among) {
        List<Object> where = new java.util.ArrayList<>(bucket);
        where.addAll(among);
        List<Object> params = new java.util.ArrayList<>(where);
        params.addAll(where);
        return tx.get(OrderingSql.bucketUnitsAsOf(among.size()), params.toArray())
                .map(r -> new SettledUnits(Columns.longOf(r, "ordered_units"), Columns.longOf(r, "failed_units")))
                .orElse(new SettledUnits(0, 0));
    }

    public SkuHoldings holdings(long activityId, long skuId) {
        List<SkuHoldings.Holder> holders;
        try (Stream<DbRow> rows = db.execute().query(OrderingSql.SELECT_HOLDERS, activityId, skuId)) {
            holders = rows.map(r -> new SkuHoldings.Holder(Columns.longOf(r, "user_id"),
                    Columns.textOf(r, "reservation_id"))).toList();
        }
        List<BucketFigures> figures = figuresByBucket(activityId, skuId);
        List<SkuHoldings.Refilled> refilled;
        // after the figures: a refill marked applied meanwhile is listed, and its unit was taken before
        try (Stream<DbRow> rows = db.execute().query(OrderingSql.SELECT_APPLIED_REFILLS_OF_SKU, activityId, skuId)) {
            refilled = rows.map(r -> new SkuHoldings.Refilled(Columns.intOf(r, "bucket"),
                    Columns.textOf(r, "reservation_id"), Columns.intOf(r, "quantity"))).toList();
        }
        return new SkuHoldings(figures, holders, refilled);
    }

    public List<Long> activitiesEndingAfter(Instant endedAfter) {
        try (Stream<DbRow> rows = db.execute().query(OrderingSql.SELECT_ACTIVITIES_ENDING_AFTER,
                UtcTime.column(endedAfter))) {
            return rows.map(r -> Columns.longOf(r, "id")).toList();
        }
    }

    /** Whether this ledger has bound a Redis namespace before (changeset ordering:10-ledger-bound). */
    public boolean ledgerBound() {
        return db.execute().get(OrderingSql.SELECT_LEDGER_BOUND).map(row -> Columns.longOf(row, "n") > 0).orElse(false);
    }

    /** Records that this ledger holds a namespace's data from now on; the first time only. */
    public void markLedgerBound(Instant now) {
        db.execute().dml(OrderingSql.MARK_LEDGER_BOUND, UtcTime.column(now));
    }

    /** The id this ledger was given when its schema was created (changeset ordering:8-ledger-identity). */
    public String ledgerId() {
        return db.execute().get(OrderingSql.SELECT_LEDGER_ID).map(row -> Columns.textOf(row, "ledger_id"))
                .orElseThrow(() -> new IllegalStateException("seckill_ledger has no row: the schema was not migrated"));
    }
}
