package seckill.ledger.sql;

import java.util.List;
import java.util.Optional;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbRow;
import seckill.ledger.api.FailedReservation;
import seckill.ledger.api.OrderStatus;
import seckill.ledger.api.OrderView;

/** Reads orders and recorded failures by reservation id. */
public final class OrderRows {

    private final DbClient db;

    public OrderRows(DbClient db) {
        this.db = db;
    }

    public Optional<OrderView> byReservation(String reservationId) {
        return db.execute().get(OrderingSql.SELECT_ORDER_BY_RESERVATION, reservationId).map(OrderRows::view);
    }

    public Optional<String> failureOf(String reservationId, long userId) {
        return db.execute().get(OrderingSql.SELECT_FAILURE, reservationId, userId)
                .map(row -> Columns.textOf(row, "reason"));
    }

    public List<OrderView> ordersOf(long activityId, long userId) {
        try (var rows = db.execute().query(OrderingSql.SELECT_ORDERS_OF_BUYER, activityId, userId)) {
            return rows.map(OrderRows::view).toList();
        }
    }

    public List<FailedReservation> failuresOf(long activityId, long userId) {
        try (var rows = db.execute().query(OrderingSql.SELECT_FAILURES_OF_BUYER, activityId, userId)) {
            return rows.map(row -> new FailedReservation(Columns.textOf(row, "reservation_id"),
                    Columns.longOf(row, "sku_id"), Columns.intOf(row, "quantity"), Columns.textOf(row, "reason")))
                    .toList();
        }
    }

    private static OrderView view(DbRow row) {
        return new OrderView(Columns.textOf(row, "order_no"), Columns.textOf(row, "reservation_id"),
                Columns.longOf(row, "activity_id"), Columns.longOf(row, "sku_id"),
                Columns.longOf(row, "user_id"), Columns.intOf(row, "quantity"),
                OrderStatus.ofCode(Columns.intOf(row, "status")),
                UtcTime.instant(row.column("expire_at").get()), UtcTime.instant(row.column("created_at").get()),
                Columns.priceOf(row, "price_amount", "price_currency"));
    }
}
