package seckill.client;

import java.util.List;

/** A buyer's own reservations in one activity, read from the service's primary stores. */
public record BuyerReservations(List<ReservationView> reservations) {
}
