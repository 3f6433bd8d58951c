package seckill.settlement;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.ledger.api.catalogue.ActivityCatalog;
import seckill.ledger.api.catalogue.Activity;
import seckill.ledger.api.FailedReservation;
import seckill.ledger.api.OrderLookup;
import seckill.ledger.api.catalogue.SkuLine;
import seckill.ledger.api.OrderView;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.Holdings;
import seckill.settlement.api.HeldReservation;
import seckill.settlement.api.ReservationStatus;
import seckill.settlement.api.ReservationTracking;

/**
 * Finds a reservation's status: the ledger first (an order or a recorded failure is final), then
 * Redis (the reservation is recorded but not yet ordered). Only the buyer who holds it gets an answer.
 */
@ApplicationScoped
class TrackingReservations implements ReservationTracking {

    private final OrderLookup orders;

    private final Holdings holdings;

    private final ActivityCatalog catalog;

    @Inject
    TrackingReservations(OrderLookup orders,
                         Holdings holdings,
                         ActivityCatalog catalog) {
        this.orders = orders;
        this.holdings = holdings;
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
                    view.status().name(), view.price(), view.quantity()))
                    : Optional.empty();
        }
        // a failed reservation's buyer may already be released in Redis, so the ledger answers first
        Optional<String> failure = orders.failureOf(id, userId);
        if (failure.isPresent()) {
            return Optional.of(ReservationStatus.failed(reservationId, failure.get()));
        }
        int buckets = catalog.find(id.activityId()).flatMap(a -> a.sku(id.skuId())).map(SkuLine::buckets).orElse(1);
        return holdings.isHeldBy(id, userId, buckets) ? Optional.of(ReservationStatus.queued(reservationId))
                : Optional.empty();
    }

    @Override
    public List<HeldReservation> heldBy(long activityId, long userId) {
        Optional<Activity> activity = catalog.find(activityId);
        if (activity.isEmpty()) {
            return List.of();
        }
        // the ledger first: an order or a failure is final; then what Redis holds and the ledger has not yet seen
        Map<String, HeldReservation> held = new LinkedHashMap<>();
        for (OrderView order : orders.ordersOf(activityId, userId)) {
            held.put(order.reservationId(), new HeldReservation(order.skuId(), Optional.of(order.quantity()),
                    ReservationStatus.ordered(order.reservationId(), order.orderNo(), order.expiresAt(),
                            order.status().name(), order.price(), order.quantity())));
        }
        for (FailedReservation failed : orders.failuresOf(activityId, userId)) {
            held.putIfAbsent(failed.reservationId(), new HeldReservation(failed.skuId(), Optional.of(failed.quantity()),
                    ReservationStatus.failed(failed.reservationId(), failed.reason())));
        }
        for (SkuLine sku : activity.get().skus()) {
            holdings.heldFor(activityId, sku.skuId(), sku.buckets(), userId).ifPresent(id ->
                    held.putIfAbsent(id.toString(), new HeldReservation(sku.skuId(), Optional.empty(),
                            ReservationStatus.queued(id.toString()))));
        }
        return held.values().stream().sorted(Comparator.comparingLong(HeldReservation::skuId)).toList();
    }
}
