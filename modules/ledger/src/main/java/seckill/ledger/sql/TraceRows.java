package seckill.ledger.sql;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbRow;
import seckill.ledger.api.LedgerTrace;
import seckill.ledger.api.OrderStatus;
import seckill.ledger.api.OrderView;

/** Reads every ledger row of one reservation, for support's trace. */
public final class TraceRows {

    private final DbClient db;

    public TraceRows(DbClient db) {
        this.db = db;
    }

    public LedgerTrace follow(String reservationId) {
        Optional<LedgerTrace.Order> order = db.execute().get(OrderingSql.TRACE_ORDER, reservationId).map(TraceRows::order);
        Optional<LedgerTrace.Failure> failure = db.execute().get(OrderingSql.TRACE_FAILURE, reservationId)
                .map(row -> new LedgerTrace.Failure(Columns.longOf(row, "user_id"), Columns.intOf(row, "quantity"),
                        Columns.textOf(row, "reason"), UtcTime.instant(row.column("failed_at").get()),
                        number(row, "event_position")));
        Optional<LedgerTrace.Refusals> refusals = db.execute().get(OrderingSql.TRACE_REJECTIONS, reservationId)
                .map(row -> new LedgerTrace.Refusals(Columns.intOf(row, "attempts"), Columns.textOf(row, "last_reason"),
                        UtcTime.instant(row.column("updated_at").get())));
        Optional<LedgerTrace.Refill> refill = db.execute().get(OrderingSql.TRACE_REFILL, reservationId)
                .map(row -> new LedgerTrace.Refill(Columns.intOf(row, "bucket"), Columns.longOf(row, "user_id"),
                        Columns.intOf(row, "quantity"), Columns.longOf(row, "release_buyer") == 1,
                        Columns.longOf(row, "status") == 1, Columns.intOf(row, "attempts"),
                        UtcTime.instant(row.column("created_at").get()), time(row, "applied_at")));
        return new LedgerTrace(order, failure, refusals, refill);
    }

    private static LedgerTrace.Order order(DbRow row) {
        OrderView view = new OrderView(Columns.textOf(row, "order_no"), Columns.textOf(row, "reservation_id"),
                Columns.longOf(row, "activity_id"), Columns.longOf(row, "sku_id"),
                Columns.longOf(row, "user_id"), Columns.intOf(row, "quantity"),
                OrderStatus.ofCode(Columns.intOf(row, "status")),
                UtcTime.instant(row.column("expire_at").get()), UtcTime.instant(row.column("created_at").get()),
                Columns.priceOf(row, "price_amount", "price_currency"));
        String payment = Columns.textOf(row, "payment_id");
        return new LedgerTrace.Order(view, payment.isEmpty() ? Optional.empty() : Optional.of(payment),
                time(row, "paid_at"), UtcTime.instant(row.column("updated_at").get()), number(row, "event_position"));
    }

    private static Optional<Instant> time(DbRow row, String column) {
        String text = Columns.textOf(row, column);
        return text.isEmpty() ? Optional.empty() : Optional.of(UtcTime.instant(text));
    }

    private static OptionalLong number(DbRow row, String column) {
        String text = Columns.textOf(row, column);
        return text.isEmpty() ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(text));
    }
}
