package seckill.ledger;

import java.util.List;
import java.util.Optional;

import io.helidon.dbclient.DbClient;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.ledger.api.FailedReservation;
import seckill.ledger.api.OrderLookup;
import seckill.ledger.api.OrderView;
import seckill.ledger.sql.OrderRows;
import seckill.reservation.api.ReservationId;

/** Answers what became of a reservation from the ledger. */
@ApplicationScoped
class LookingUpOrders implements OrderLookup {

    private final DbClient db;

    @Inject
    LookingUpOrders(DbClient db) {
        this.db = db;
    }

    private OrderRows rows;

    @PostConstruct
    void init() {
        rows = new OrderRows(db);
    }

    @Override
    public Optional<OrderView> byReservation(ReservationId id) {
        return rows.byReservation(id.toString());
    }

    @Override
    public Optional<String> failureOf(ReservationId id, long userId) {
        return rows.failureOf(id.toString(), userId);
    }

    @Override
    public List<OrderView> ordersOf(long activityId, long userId) {
        return rows.ordersOf(activityId, userId);
    }

    @Override
    public List<FailedReservation> failuresOf(long activityId, long userId) {
        return rows.failuresOf(activityId, userId);
    }
}
