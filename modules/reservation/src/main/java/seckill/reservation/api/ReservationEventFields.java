package seckill.reservation.api;

import java.time.Instant;
import java.util.Map;

/**
 * The one reader of a reservation event's stream fields: whoever reads a bucket's stream (the ordering
 * workers through {@link ReservationEvents}, a trace tool, a test) decodes entries here. An entry holds
 * {@code reservationId}, {@code userId}, {@code quantity}, {@code requestId} and {@code reservedAt}
 * (epoch millis). Entries written before issue #35 also hold {@code activityId} and {@code skuId}; they
 * are no longer written, because the reservation id names both ({@link ReservationId#activityId()},
 * {@link ReservationId#skuId()}), and are ignored when present: both shapes decode alike, so instances
 * of either version can settle each other's events during a rolling upgrade.
 */
public final class ReservationEventFields {

    public static final String RESERVATION_ID = "reservationId";
    public static final String USER_ID = "userId";
    public static final String QUANTITY = "quantity";
    public static final String REQUEST_ID = "requestId";
    public static final String RESERVED_AT = "reservedAt";

    private ReservationEventFields() {
    }

    /**
     * The event an entry records; an entry that is not a well-formed reservation event is returned with
     * a null id (the consumer treats it as unreadable and dead-letters it), never dropped.
     */
    public static ReservationEvent decode(Map<String, String> fields, EventPosition position, long deliveries) {
        ReservationId id = ReservationId.parse(fields.get(RESERVATION_ID)).orElse(null);
        if (id == null) {
            return unreadable(position, deliveries);
        }
        try {
            return new ReservationEvent(id, Long.parseLong(fields.get(USER_ID)), Integer.parseInt(fields.get(QUANTITY)),
                    fields.get(REQUEST_ID), Instant.ofEpochMilli(Long.parseLong(fields.get(RESERVED_AT))), position,
                    deliveries);
        } catch (RuntimeException malformed) {
            return unreadable(position, deliveries);
        }
    }

    private static ReservationEvent unreadable(EventPosition position, long deliveries) {
        return new ReservationEvent(null, 0, 0, null, null, position, deliveries);
    }
}
