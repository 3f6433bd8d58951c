package seckill.settlement.api;

import java.time.Instant;
import java.util.Optional;

/**
 * Where a buyer's reservation stands: {@code QUEUED} until its order exists, {@code ORDERED} with
 * the order number and payment deadline, or {@code FAILED} with the reason it can never be
 * ordered. {@code orderStatus} is the order's own status (PENDING, PAID, TIMEOUT) once ordered.
 */
public record ReservationStatus(String reservationId, State state, Optional<String> orderNo,
                                Optional<Instant> expiresAt, Optional<String> orderStatus, Optional<String> reason) {

    public enum State { QUEUED, ORDERED, FAILED }

    public static ReservationStatus queued(String id) {
        return new ReservationStatus(id, State.QUEUED, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty());
    }

    public static ReservationStatus ordered(String id, String orderNo, Instant expiresAt, String orderStatus) {
        return new ReservationStatus(id, State.ORDERED, Optional.of(orderNo), Optional.of(expiresAt),
                Optional.of(orderStatus), Optional.empty());
    }

    public static ReservationStatus failed(String id, String reason) {
        return new ReservationStatus(id, State.FAILED, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.of(reason));
    }
}
