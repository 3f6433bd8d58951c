package seckill.ledger.api;

import java.util.List;
import java.util.Optional;

import seckill.reservation.api.ReservationId;

/**
 * The ledger module's door for reading what became of a reservation: its order, or the reason
 * it can never become one.
 */
public interface OrderLookup {

    Optional<OrderView> byReservation(ReservationId id);

    /** Why the buyer's reservation can never be ordered, if it can't. */
    Optional<String> failureOf(ReservationId id, long userId);

    /** The buyer's orders in an activity (at most one per SKU). */
    List<OrderView> ordersOf(long activityId, long userId);

    /** The buyer's reservations in an activity that can never be ordered. */
    List<FailedReservation> failuresOf(long activityId, long userId);
}
