package seckill.reservation;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.params.XPendingParams;
import redis.clients.jedis.resps.StreamPendingEntry;
import seckill.redis.CoalescingSettings;
import seckill.redis.ReplicaAcks;
import seckill.reservation.api.ReservationEvent;
import seckill.reservation.api.UnreplicatedEvents;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Events are handed to a consumer only once the required replicas hold them. The test's Redis has
 * no replica, so with one required every read throws {@link UnreplicatedEvents}, and the events stay
 * pending with the consumer that read them, to be read again, nothing lost ({@link TestRedis}).
 */
class UnreplicatedEventsTest {

    @RegisterExtension
    static final TestRedis SERVER = new TestRedis();

    @Test
    void eventsNoReplicaHoldsStayPendingWithTheirReader() {
        String stream = "sk:{unreplicated-" + System.nanoTime() + "}:events";
        SERVER.client().xgroupCreate(stream, "ordering", new StreamEntryID(), true);
        for (int i = 0; i < 3; i++) {
            SERVER.client().xadd(stream, StreamEntryID.NEW_ENTRY, Map.of("reservationId", "r" + i, "quantity", "1"));
        }
        StreamedReservations oneReplicaRequired = events(new ReplicaAcks(1, 20));

        assertThrows(UnreplicatedEvents.class, () -> oneReplicaRequired.readNew(stream, "w", 10));
        List<StreamPendingEntry> pending = SERVER.client().xpending(stream, "ordering",
                XPendingParams.xPendingParams().count(10));
        assertThat(pending.size(), is(3));
        assertThat(pending.stream().allMatch(p -> p.getConsumerName().equals("w")), is(true));
        assertThrows(UnreplicatedEvents.class, () -> oneReplicaRequired.readOwnPending(stream, "w", 10));
        assertThrows(UnreplicatedEvents.class,
                () -> oneReplicaRequired.reclaimIdle(stream, "other", Duration.ZERO, 10));

        // the same entries, still there, for a reader that needs no replica
        List<ReservationEvent> again = events(ReplicaAcks.NONE).readOwnPending(stream, "other", 10);
        assertThat(again.size(), is(3));
        assertThat(SERVER.client().xpending(stream, "ordering").getTotal(), is(3L));
    }

    private static StreamedReservations events(ReplicaAcks acks) {
        return new StreamedReservations(SERVER.client(), Clock.systemUTC(), new ReservationSettings("ordering", 2_000,
                Duration.ofSeconds(30), new CoalescingSettings(true, 32, 0, 1), acks));
    }
}
