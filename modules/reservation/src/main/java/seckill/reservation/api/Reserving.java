package seckill.reservation.api;

/**
 * The purchase path's door: judges, pre-deducts and records one buyer's reservation in one atomic
 * Redis step. Redis failures surface as {@link ReservationUnavailable}, never as a guess.
 */
public interface Reserving {

    /** Judges, pre-deducts and records one buyer's reservation atomically. */
    ReservationOutcome reserve(ReserveStock command);
}
