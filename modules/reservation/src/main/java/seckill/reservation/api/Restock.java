package seckill.reservation.api;

/**
 * Command: give a reservation's units back to the bucket they came from. Idempotent per
 * reservation id: applying the same restock twice changes Redis once. With {@code releaseBuyer}
 * the buyer's record (in their home bucket among {@code buckets}) is removed too, so they may
 * reserve again.
 */
public record Restock(ReservationId reservation, long userId, int quantity, boolean releaseBuyer, int buckets) {

    public Restock(ReservationId reservation, long userId, int quantity, boolean releaseBuyer) {
        this(reservation, userId, quantity, releaseBuyer, 1);
    }
}
