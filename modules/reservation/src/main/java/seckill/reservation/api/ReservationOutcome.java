package seckill.reservation.api;

/**
 * What the atomic reservation step decided for one buyer. Exactly one of these comes back per
 * {@link ReserveStock}; only {@link Reserved} took stock and recorded an event.
 */
public sealed interface ReservationOutcome {

    /** Stock was taken and the reservation event was recorded in the same atomic step. */
    record Reserved(ReservationId id, long remaining) implements ReservationOutcome {
    }

    /** The buyer already holds a reservation for this SKU; nothing changed. */
    record AlreadyReserved(ReservationId id) implements ReservationOutcome {
    }

    /** No unit is left. */
    record SoldOut() implements ReservationOutcome {
    }

    /** Some units are left, but fewer than asked for. */
    record InsufficientStock(long remaining) implements ReservationOutcome {
    }

    /** The SKU's stock is not in Redis (not preheated, or its keys expired). */
    record NotPreheated() implements ReservationOutcome {
    }
}
