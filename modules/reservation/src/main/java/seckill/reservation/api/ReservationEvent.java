package seckill.reservation.api;

import java.time.Instant;

/**
 * A recorded reservation as read from its event stream by the ordering side. {@code position}
 * identifies the stream entry so it can be acknowledged once its outcome is committed;
 * {@code deliveries} counts how often the stream has handed it out (1 on first delivery).
 */
public record ReservationEvent(ReservationId id,
                               long userId,
                               int quantity,
                               String requestId,
                               Instant reservedAt,
                               EventPosition position,
                               long deliveries) {
}
