package seckill.reservation.api;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one reader of a reservation event's stream fields: whoever reads a bucket's stream (the ordering
 * workers through {@link ReservationEvents}, a trace tool, a test) decodes entries here. Three shapes
 * decode alike, so instances of any of these versions settle each other's events during a rolling
 * upgrade:
 * <ul>
 * <li>since issue #35's third step, an entry of the coalesced script records all the reservations of its
 * call: one field, {@code es} ({@link #EVENTS}), holding each reservation's {@link #packed} text, joined
 * by a newline ({@code '\n'}) in the call's order (a call that reserved for one buyer writes {@code e}, as
 * below). One {@code XADD} per call instead of one per reservation took about a fifth off a reserving
 * buyer's Redis instructions. Such an entry is settled, and acknowledged, only when all its reservations
 * are ({@link #decodeAll});</li>
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
    public static final String EVENTS = "es";
    /** What separates the reservations' texts in {@link #EVENTS}. */
    public static final char SEPARATOR = '\n';
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
     * Each reservation's fields by name of an entry of any shape, in the order recorded: an
     * {@link #EVENTS} entry's reservations, or the one of any other entry (as {@link #named}).
     */
    public static List<Map<String, String>> namedAll(Map<String, String> fields) {
        String many = fields.get(EVENTS);
        if (many == null) {
            return List.of(named(fields));
        }
        List<Map<String, String>> all = new ArrayList<>();
        int from = 0;
        while (true) {
            int end = many.indexOf(SEPARATOR, from);
            all.add(split(end < 0 ? many.substring(from) : many.substring(from, end)));
            if (end < 0) {
                return all;
            }
            from = end + 1;
        }
    }

    /** The fields by name of reservation {@code reservationId} in an entry of any shape, if it records it. */
    public static Optional<Map<String, String>> namedFor(Map<String, String> fields, String reservationId) {
        return namedAll(fields).stream().filter(named -> reservationId.equals(named.get(RESERVATION_ID))).findFirst();
    }

    /**
     * The entry's fields by name, whichever shape it was written in: a packed entry's {@link #EVENT}
     * split into {@code reservationId}, {@code userId}, {@code quantity}, {@code reservedAt} and
     * {@code requestId}; any other entry as it is (an {@link #EVENTS} entry records several: {@link #namedAll}).
     */
    public static Map<String, String> named(Map<String, String> fields) {
        String packed = fields.get(EVENT);
        if (packed == null) {
            return fields;
        }
        Map<String, String> named = split(packed);
        fields.forEach((name, value) -> {
            if (!name.equals(EVENT)) {
                named.putIfAbsent(name, value);
            }
        });
        return named;
    }

    private static Map<String, String> split(String packed) {
        String[] parts = packed.split(",", 5);
        Map<String, String> named = new LinkedHashMap<>();
        for (int i = 0; i < parts.length; i++) {
            named.put(NAMES[i], parts[i]);
        }
        return named;
    }

    private static final String[] NAMES = {RESERVATION_ID, USER_ID, QUANTITY, RESERVED_AT, REQUEST_ID};

    /**
     * The events an entry records, in the order recorded, each at the entry's position: one, or with
     * {@link #EVENTS} one per reservation of the call. Whoever settles them acknowledges the entry only
     * once every one of them is settled. A reservation that is not well formed is an event with a null id
     * (unreadable: it holds its entry pending), never dropped.
     */
    public static List<ReservationEvent> decodeAll(Map<String, String> entry, EventPosition position, long deliveries) {
        if (!entry.containsKey(EVENTS)) {
            return List.of(decode(entry, position, deliveries));
        }
        List<ReservationEvent> events = new ArrayList<>();
        for (Map<String, String> fields : namedAll(entry)) {
            events.add(decodeNamed(fields, position, deliveries));
        }
        return events;
    }

    /**
     * The event an entry records; an entry that is not a well-formed reservation event is returned with
     * a null id (the consumer treats it as unreadable and dead-letters it), never dropped.
     */
    public static ReservationEvent decode(Map<String, String> entry, EventPosition position, long deliveries) {
        return decodeNamed(named(entry), position, deliveries);
    }

    private static ReservationEvent decodeNamed(Map<String, String> fields, EventPosition position, long deliveries) {
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
