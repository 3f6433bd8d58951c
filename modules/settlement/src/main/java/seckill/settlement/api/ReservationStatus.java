package seckill.settlement.api;

import java.time.Instant;
import java.util.Optional;

import seckill.ledger.api.catalogue.SkuPrice;

/**
 * Where a buyer's reservation stands: {@code QUEUED} until its order exists, {@code ORDERED} with
 * the order number and payment deadline, or {@code FAILED} with the reason it can never be
 * ordered. {@code orderStatus} is the order's own status (PENDING, PAID, TIMEOUT) once ordered;
 * {@code price} the unit price the order was sold at (empty for a SKU without one) and
 * {@code quantity} its units, so {@code price × quantity} is what paying it takes.
 */
public record ReservationStatus(String reservationId, State state, Optional<String> orderNo,
                                Optional<Instant> expiresAt, Optional<String> orderStatus, Optional<String> reason,
                                Optional<SkuPrice> price, Optional<Integer> quantity) {

    public enum State { QUEUED, ORDERED, FAILED }

    public static ReservationStatus queued(String id) {
        return new ReservationStatus(id, State.QUEUED, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty());
    }

    public static ReservationStatus ordered(String id, String orderNo, Instant expiresAt, String orderStatus,
                                            Optional<SkuPrice> price, int quantity) {
        return new ReservationStatus(id, State.ORDERED, Optional.of(orderNo), Optional.of(expiresAt),
                Optional.of(orderStatus), Optional.empty(), price, Optional.of(quantity));
    }

    public static ReservationStatus failed(String id, String reason) {
        return new ReservationStatus(id, State.FAILED, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.of(reason), Optional.empty(), Optional.empty());
    }
}
