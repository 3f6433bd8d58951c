package seckill.reservation.api;

/**
 * What the atomic reservation step decided for one buyer. Exactly one of these comes back per
 * {@link ReserveStock}; only {@link Reserved} took stock and recorded an event.
 */
public sealed interface ReservationOutcome {

    /**
     * Stock was taken and the reservation event was recorded in the same atomic step.
     * {@code remaining} counts the units left in the bucket the unit came from; only when that is
     * the SKU's one bucket does it speak for the SKU ({@link #skuRemaining()}).
     */
    record Reserved(ReservationId id, long remaining, boolean wholeSku) implements ReservationOutcome {

        public Reserved(ReservationId id, long remaining) {
            this(id, remaining, true);
        }

        /** Units left of the whole SKU, when this answer knows it. */
        public java.util.OptionalLong skuRemaining() {
            return wholeSku ? java.util.OptionalLong.of(remaining) : java.util.OptionalLong.empty();
        }
    }

    /** The buyer already holds a reservation for this SKU; nothing changed. */
    record AlreadyReserved(ReservationId id) implements ReservationOutcome {
    }

    /**
     * The buyer is over their {@link BuyerWindow}: this was attempt number {@code attempts} in it,
     * and it ends in {@code retryAfterMillis}. Nothing was taken or recorded.
     */
    record Throttled(long attempts, long retryAfterMillis) implements ReservationOutcome {
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

    /**
     * Another click of the same buyer is taking units from another bucket right now; its
     * reservation id is not known yet. Asking again shortly answers it.
     */
    record InProgress() implements ReservationOutcome {
    }

    /**
     * The bucket gave a unit under {@code id} already, to another buyer (or to this one, since given
     * back): the instance that chose it does not own its node id alone (Redis lost the lease keys and
     * another instance leased the same node id). Nothing was taken or counted. {@link Reserving}
     * takes a new node id lease and tries the buyer once more with a fresh id (a second refusal fails
     * the call as {@link ReservationUnavailable}, not in doubt), so it never leaves {@code reserve}. A
     * rehearsal's bucket fails the call so at once and keeps the node id: replacing it writes real
     * ({@code sk:}) keys, which a rehearsal never does (the next collision of a real sale replaces it).
     */
    record IdTaken(ReservationId id) implements ReservationOutcome {
    }

    /**
     * Redis answered for this buyer with a record this instance cannot read (a malformed id); nothing
     * is known of their reservation. Only this buyer's answer: the others judged in the same call
     * keep theirs.
     */
    record Unreadable(String reply) implements ReservationOutcome {
    }
}
