package seckill.reservation.api;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one reader of a reservation event's stream fields: whoever reads a bucket's stream (the ordering
 * workers through {@link ReservationEvents}, a trace tool, a test) decodes entries here. Three shapes
 * decode alike, so instances of any of these versions settle each other's events during a rolling
 * upgrade:
 * <ul>
 * <li>since issue #35's second step, the coalesced script's entries hold one field, {@code e}
 * ({@link #EVENT}), valued {@code reservationId,userId,quantity,reservedAt,requestId} ({@link #packed});
 * the request id comes last and may itself hold commas. One field instead of five makes the script's
 * {@code XADD} about a tenth of a reservation's Redis CPU cheaper;</li>
 * <li>the single-buyer and donor scripts' entries hold {@code reservationId}, {@code userId},
 * {@code quantity}, {@code requestId} and {@code reservedAt} (epoch millis);</li>
 * <li>entries written before issue #35 also hold {@code activityId} and {@code skuId}: no longer written,
 * because the reservation id names both ({@link ReservationId#activityId()}, {@link ReservationId#skuId()}),
 * and ignored when present.</li>
 * </ul>
 */
public final class ReservationEventFields {

    public static final String EVENT = "e";
    public static final String RESERVATION_ID = "reservationId";
    public static final String USER_ID = "userId";
    public static final String QUANTITY = "quantity";
    public static final String REQUEST_ID = "requestId";
    public static final String RESERVED_AT = "reservedAt";

    private ReservationEventFields() {
    }

    /**
     * The value of the {@link #EVENT} field recording a reservation: what the coalesced script writes
     * as it is, beside the id, buyer and quantity it judged (built from the same claim).
     */
    public static String packed(ReservationId id, long userId, int quantity, long reservedAtMillis, String requestId) {
        return id + "," + userId + "," + quantity + "," + reservedAtMillis + "," + requestId;
    }

    /**
     * The entry's fields by name, whichever shape it was written in: a packed entry's {@link #EVENT}
     * split into {@code reservationId}, {@code userId}, {@code quantity}, {@code reservedAt} and
     * {@code requestId}; any other entry as it is.
     */
    public static Map<String, String> named(Map<String, String> fields) {
        String packed = fields.get(EVENT);
        if (packed == null) {
            return fields;
        }
        String[] parts = packed.split(",", 5);
        Map<String, String> named = new LinkedHashMap<>();
        String[] names = {RESERVATION_ID, USER_ID, QUANTITY, RESERVED_AT, REQUEST_ID};
        for (int i = 0; i < parts.length; i++) {
            named.put(names[i], parts[i]);
        }
        fields.forEach((name, value) -> {
            if (!name.equals(EVENT)) {
                named.putIfAbsent(name, value);
            }
        });
        return named;
    }

    /**
     * The event an entry records; an entry that is not a well-formed reservation event is returned with
     * a null id (the consumer treats it as unreadable and dead-letters it), never dropped.
     */
    public static ReservationEvent decode(Map<String, String> entry, EventPosition position, long deliveries) {
        Map<String, String> fields = named(entry);
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
