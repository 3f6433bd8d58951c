package seckill.ordering.api;

import java.util.Optional;

import seckill.reservation.api.ReservationId;

/**
 * The ordering module's door for reading what became of a reservation: its order, or the reason
 * it can never become one.
 */
public interface OrderLookup {

    Optional<OrderView> byReservation(ReservationId id);

    Optional<String> failureOf(ReservationId id);
}
