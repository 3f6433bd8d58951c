package seckill.reservation.api;

/**
 * Gives a reservation's units back to its bucket (a failed, expired or cancelled order's stock).
 * Redis failures surface as {@link ReservationUnavailable}.
 */
public interface Restocking {

    /** Gives a reservation's units back to its bucket, at most once per reservation. */
    RestockOutcome restock(Restock command);
}
