package seckill.reservation.api;

/**
 * Redis could not give a definite answer (connection refused, timeout, script error). The caller
 * must not assume the reservation did or did not happen; the purchase path stops issuing.
 */
public class ReservationUnavailable extends RuntimeException {

    public ReservationUnavailable(String message, Throwable cause) {
        super(message, cause);
    }
}
