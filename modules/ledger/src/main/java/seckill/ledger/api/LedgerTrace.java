package seckill.ledger.api;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What the ledger holds of one reservation ({@link LedgerTrail}). {@code eventPosition} is the
 * ordinal of the event's stream entry as the order or failure recorded it
 * ({@code EventPosition.ordinal()}).
 */
public record LedgerTrace(Optional<Order> order, Optional<Failure> failure, Optional<Refusals> refusals,
                          Optional<Refill> refill) {

    /** The order: its status, payment, deadline; {@code eventPosition} when recorded. */
    public record Order(OrderView view, Optional<String> paymentId, Optional<Instant> paidAt, Instant updatedAt,
                        OptionalLong eventPosition) {
    }

    /** The reservation recorded as never able to become an order, and why. */
    public record Failure(long userId, int quantity, String reason, Instant failedAt, OptionalLong eventPosition) {
    }

    /** How often the ledger refused the reservation's event before it was settled or given up on. */
    public record Refusals(int attempts, String lastReason, Instant updatedAt) {
    }

    /**
     * The refill of the reservation's unit (a timed-out order, a failure): written in the ledger
     * transaction, then applied to Redis by the outbox relay ({@code applied}).
     */
    public record Refill(int bucket, long userId, int quantity, boolean releaseBuyer, boolean applied, int attempts,
                         Instant createdAt, Optional<Instant> appliedAt) {
    }

    /** The buyer, as the order or the failure names them. */
    public OptionalLong buyer() {
        if (order.isPresent()) {
            return OptionalLong.of(order.get().view().userId());
        }
        return failure.map(f -> OptionalLong.of(f.userId())).orElse(OptionalLong.empty());
    }

    /** The event's stream position as the order or the failure recorded it. */
    public OptionalLong eventPosition() {
        if (order.isPresent() && order.get().eventPosition().isPresent()) {
            return order.get().eventPosition();
        }
        return failure.map(Failure::eventPosition).orElse(OptionalLong.empty());
    }

    /** Whether the ledger knows the reservation at all. */
    public boolean known() {
        return order.isPresent() || failure.isPresent() || refusals.isPresent() || refill.isPresent();
    }
}
