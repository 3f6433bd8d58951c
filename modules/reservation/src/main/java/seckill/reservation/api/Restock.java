package seckill.reservation.api;

/**
 * Command: give a reservation's units back to the bucket they came from. Idempotent per
 * reservation id: applying the same restock twice changes Redis once. With {@code releaseBuyer}
 * the buyer's record is removed too, so they may reserve again.
 */
public record Restock(ReservationId reservation, long userId, int quantity, boolean releaseBuyer) {
}
