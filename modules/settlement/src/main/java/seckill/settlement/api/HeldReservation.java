package seckill.settlement.api;

import java.util.Optional;

/**
 * One of a buyer's reservations in an activity: which SKU, how many units when the ledger knows
 * ({@code quantity} is empty while the reservation is still queued), and where it stands.
 */
public record HeldReservation(long skuId, Optional<Integer> quantity, ReservationStatus status) {
}
