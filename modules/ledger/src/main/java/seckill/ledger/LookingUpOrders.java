package seckill.ledger;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.ledger.api.FailedReservation;
import seckill.ledger.api.OrderLookup;
import seckill.ledger.api.OrderView;
import seckill.ledger.sql.OrderRows;
import seckill.redis.World;
import seckill.reservation.api.ReservationId;

/**
 * Answers what became of a reservation from the ledger of its activity's world ({@link World#of}): a
 * rehearsal's from the shadow ledger, unknown when there is none.
 */
@ApplicationScoped
class LookingUpOrders implements OrderLookup {

    private final LedgersByWorld.PerWorld<OrderRows> rows;

    @Inject
    LookingUpOrders(LedgersByWorld ledgers) {
        this.rows = ledgers.each(OrderRows::new);
    }

    private Optional<OrderRows> of(long activityId) {
        return rows.of(World.of(activityId));
    }

    @Override
    public Optional<OrderView> byReservation(ReservationId id) {
        return of(id.activityId()).flatMap(r -> r.byReservation(id.toString()));
    }

    @Override
    public Optional<String> failureOf(ReservationId id, long userId) {
        return of(id.activityId()).flatMap(r -> r.failureOf(id.toString(), userId));
    }

    @Override
    public List<OrderView> ordersOf(long activityId, long userId) {
        return of(activityId).map(r -> r.ordersOf(activityId, userId)).orElseGet(List::of);
    }

    @Override
    public List<FailedReservation> failuresOf(long activityId, long userId) {
        return of(activityId).map(r -> r.failuresOf(activityId, userId)).orElseGet(List::of);
    }
}
