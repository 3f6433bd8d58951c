package seckill.settlement;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.ordering.api.ActivityCatalog;
import seckill.ordering.api.OrderLookup;
import seckill.ordering.api.SkuLine;
import seckill.ordering.api.OrderView;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.StockReservations;
import seckill.settlement.api.ReservationStatus;
import seckill.settlement.api.ReservationTracking;

/**
 * Finds a reservation's status: the ledger first (an order or a recorded failure is final), then
 * Redis (the reservation is recorded but not yet ordered). Only the buyer who holds it gets an answer.
 */
@ApplicationScoped
class TrackingReservations implements ReservationTracking {

    private final OrderLookup orders;

    private final StockReservations reservations;

    private final ActivityCatalog catalog;

    @Inject
    TrackingReservations(OrderLookup orders,
                         StockReservations reservations,
                         ActivityCatalog catalog) {
        this.orders = orders;
        this.reservations = reservations;
        this.catalog = catalog;
    }

    @Override
    public Optional<ReservationStatus> track(String reservationId, long userId) {
        Optional<ReservationId> parsed = ReservationId.parse(reservationId);
        if (parsed.isEmpty()) {
            return Optional.empty();
        }
        ReservationId id = parsed.get();
        Optional<OrderView> order = orders.byReservation(id);
        if (order.isPresent()) {
            OrderView view = order.get();
            return view.userId() == userId
                    ? Optional.of(ReservationStatus.ordered(reservationId, view.orderNo(), view.expiresAt(),
                    view.status().name()))
                    : Optional.empty();
        }
        // a failed reservation's buyer may already be released in Redis, so the ledger answers first
        Optional<String> failure = orders.failureOf(id, userId);
        if (failure.isPresent()) {
            return Optional.of(ReservationStatus.failed(reservationId, failure.get()));
        }
        int buckets = catalog.find(id.activityId()).flatMap(a -> a.sku(id.skuId())).map(SkuLine::buckets).orElse(1);
        return reservations.isHeldBy(id, userId, buckets) ? Optional.of(ReservationStatus.queued(reservationId))
                : Optional.empty();
    }
}
