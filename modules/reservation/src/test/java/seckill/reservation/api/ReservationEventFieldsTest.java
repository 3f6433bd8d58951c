package seckill.reservation.api;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;

/**
 * Issue #35: events are written without activityId and skuId (the reservation id names both); entries
 * written before, with them, still decode to the same event, so a rolling upgrade settles both.
 */
class ReservationEventFieldsTest {

    private static final EventPosition AT = new EventPosition("sk:{a7:s3:b1}:events", "5-0");

    @Test
    void theNewShapeAndTheOldOneDecodeToTheSameEvent() {
        Map<String, String> now = Map.of("reservationId", "7-3-1-2n9c", "userId", "42", "quantity", "2",
                "requestId", "r-1", "reservedAt", "1767225600000");
        Map<String, String> before = new java.util.HashMap<>(now);
        before.put("activityId", "7");
        before.put("skuId", "3");
        ReservationEvent fromNew = ReservationEventFields.decode(now, AT, 1);
        assertThat(ReservationEventFields.decode(before, AT, 1), is(fromNew));
        assertThat(fromNew.id(), is(new ReservationId(7, 3, 1, Long.parseLong("2n9c", 36))));
        assertThat(fromNew.id().activityId(), is(7L));
        assertThat(fromNew.id().skuId(), is(3L));
        assertThat(fromNew.userId(), is(42L));
        assertThat(fromNew.quantity(), is(2));
        assertThat(fromNew.requestId(), is("r-1"));
        assertThat(fromNew.reservedAt(), is(Instant.ofEpochMilli(1767225600000L)));
        assertThat(fromNew.deliveries(), is(1L));
    }

    @Test
    void anEntryThatIsNoReservationEventIsUnreadableNotDropped() {
        ReservationEvent odd = ReservationEventFields.decode(Map.of("reservationId", "7-3-1-2n9c", "userId", "x",
                "quantity", "1", "requestId", "r", "reservedAt", "1"), AT, 3);
        assertThat(odd.id(), is(nullValue()));
        assertThat(odd.position(), is(AT));
        assertThat(odd.deliveries(), is(3L));
        assertThat(ReservationEventFields.decode(Map.of("what", "ever"), AT, 1).id(), is(nullValue()));
    }

    @Test
    void thePackedShapeDecodesToTheSameEventAsTheNamedOnes() {
        Map<String, String> named = Map.of("reservationId", "7-3-1-2n9c", "userId", "42", "quantity", "2",
                "requestId", "r-1", "reservedAt", "1767225600000");
        ReservationId id = new ReservationId(7, 3, 1, Long.parseLong("2n9c", 36));
        String packed = ReservationEventFields.packed(id, 42, 2, 1767225600000L, "r-1");
        assertThat(packed, is("7-3-1-2n9c,42,2,1767225600000,r-1"));
        assertThat(ReservationEventFields.decode(Map.of("e", packed), AT, 1),
                is(ReservationEventFields.decode(named, AT, 1)));
        assertThat(ReservationEventFields.named(Map.of("e", packed)), is(named));
    }

    @Test
    void aPackedRequestIdMayHoldCommas() {
        ReservationId id = new ReservationId(7, 3, 1, 99);
        ReservationEvent event = ReservationEventFields.decode(
                Map.of("e", ReservationEventFields.packed(id, 5, 1, 10L, "a,b,,c")), AT, 1);
        assertThat(event.id(), is(id));
        assertThat(event.requestId(), is("a,b,,c"));
        assertThat(event.userId(), is(5L));
    }

    @Test
    void aTruncatedPackedEventIsUnreadableNotDropped() {
        assertThat(ReservationEventFields.decode(Map.of("e", "7-3-1-2n9c,42,2"), AT, 2).id(), is(nullValue()));
        assertThat(ReservationEventFields.decode(Map.of("e", "7-3-1-2n9c,x,2,1,r"), AT, 2).id(), is(nullValue()));
    }

    @Test
    void aCallsEntryDecodesToEachOfItsReservationsAtTheEntrysPosition() {
        ReservationId a = new ReservationId(7, 3, 1, 1);
        ReservationId b = new ReservationId(7, 3, 1, 2);
        String many = ReservationEventFields.packed(a, 41, 1, 10L, "x,y") + ReservationEventFields.SEPARATOR
                + ReservationEventFields.packed(b, 42, 2, 10L, "z");
        List<ReservationEvent> events = ReservationEventFields.decodeAll(Map.of("es", many), AT, 2);
        assertThat(events, is(List.of(
                new ReservationEvent(a, 41, 1, "x,y", java.time.Instant.ofEpochMilli(10), AT, 2),
                new ReservationEvent(b, 42, 2, "z", java.time.Instant.ofEpochMilli(10), AT, 2))));
        assertThat(ReservationEventFields.namedFor(Map.of("es", many), b.toString()).orElseThrow().get("userId"),
                is("42"));
        // the other shapes: one event each
        assertThat(ReservationEventFields.decodeAll(Map.of("e", ReservationEventFields.packed(a, 41, 1, 10L, "x,y")),
                AT, 2), is(List.of(events.getFirst())));
    }

    @Test
    void aMalformedReservationInACallsEntryIsUnreadableAndTheOthersAreNot() {
        ReservationId a = new ReservationId(7, 3, 1, 1);
        List<ReservationEvent> events = ReservationEventFields.decodeAll(Map.of("es",
                ReservationEventFields.packed(a, 41, 1, 10L, "r") + "\n7-3-1-2,x"), AT, 1);
        assertThat(events.size(), is(2));
        assertThat(events.get(0).id(), is(a));
        assertThat("it holds its entry pending: never dropped", events.get(1).id(), is(nullValue()));
    }
}
