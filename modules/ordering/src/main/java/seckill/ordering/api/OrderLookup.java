package seckill.ordering.api;

import java.util.Optional;

import seckill.reservation.api.ReservationId;

/**
 * The ordering module's door for reading what became of a reservation: its order, or the reason
 * it can never become one.
 */
public interface OrderLookup {

    Optional<OrderView> byReservation(ReservationId id);

    /** Why the buyer's reservation can never be ordered, if it can't. */
    Optional<String> failureOf(ReservationId id, long userId);
}
