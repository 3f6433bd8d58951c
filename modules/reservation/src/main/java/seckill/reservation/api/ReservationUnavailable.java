package seckill.reservation.api;

/**
 * Redis could not give a definite answer (connection refused, timeout, script error). When
 * {@link #inDoubt()} the call may have reached Redis: the caller must not assume the reservation did
 * or did not happen, and the purchase path stops issuing. When not in doubt the call never left this
 * instance (its connection pool was exhausted): nothing happened, and a retry is safe.
 */
public class ReservationUnavailable extends RuntimeException {

    private final boolean inDoubt;

    public ReservationUnavailable(String message, Throwable cause) {
        this(message, cause, true);
    }

    public ReservationUnavailable(String message, Throwable cause, boolean inDoubt) {
        super(message, cause);
        this.inDoubt = inDoubt;
    }

    public boolean inDoubt() {
        return inDoubt;
    }
}
