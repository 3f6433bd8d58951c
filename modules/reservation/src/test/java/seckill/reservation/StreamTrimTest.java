package seckill.reservation;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.StreamEntryID;
import seckill.reservation.api.BucketSnapshot;
import seckill.reservation.api.ReservationEvent;
import seckill.reservation.api.ReservationId;
import seckill.reservation.redis.PreheatScript;
import seckill.reservation.redis.ReservationScript;
import seckill.reservation.redis.SnapshotScript;
import seckill.reservation.redis.StockBuckets;
import redis.clients.jedis.params.XReadGroupParams;
import redis.clients.jedis.resps.StreamEntry;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;

/**
 * Trimming races with a worker on real Redis: one thread appends events, one reads them through the
 * consumer group and acknowledges each batch only after checking it is still there, one trims as
 * often as it can. A pending entry must never be trimmed ({@link TestRedis}).
 */
class StreamTrimTest {

    @RegisterExtension
    static final TestRedis SERVER = new TestRedis();

    @Test
    void trimmingNeverRemovesAnEntryThatIsStillPending() throws Exception {
        String stream = "sk:{trim-test-" + System.nanoTime() + "}:events";
        SERVER.client().xgroupCreate(stream, "ordering", new StreamEntryID(), true);
        StreamedReservations events = new StreamedReservations(SERVER.client(), Clock.systemUTC(),
                new ReservationSettings("ordering", 2_000, java.time.Duration.ofSeconds(30),
                        new seckill.redis.CoalescingSettings(true, 32, 0, 1), seckill.redis.ReplicaAcks.NONE));

        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong trimmed = new AtomicLong();
        AtomicLong lostWhilePending = new AtomicLong();
        AtomicLong settled = new AtomicLong();
        Thread producer = Thread.ofPlatform().start(() -> {
            while (running.get()) {
                SERVER.client().xadd(stream, StreamEntryID.NEW_ENTRY, Map.of("reservationId", "x", "quantity", "1"));
            }
        });
        Thread worker = Thread.ofPlatform().start(() -> {
            while (running.get()) {
                var reply = SERVER.client().xreadGroup("ordering", "w", XReadGroupParams.xReadGroupParams().count(5),
                        Map.of(stream, StreamEntryID.XREADGROUP_UNDELIVERED_ENTRY));
                if (reply == null) {
                    continue;
                }
                List<StreamEntryID> ids = new ArrayList<>();
                reply.forEach(s -> s.getValue().stream().map(StreamEntry::getID).forEach(ids::add));
                // the batch is being settled: every entry of it must still be in the stream
                for (StreamEntryID id : ids) {
                    if (SERVER.client().xrange(stream, id, id, 1).isEmpty()) {
                        lostWhilePending.incrementAndGet();
                    }
                }
                SERVER.client().xack(stream, "ordering", ids.toArray(StreamEntryID[]::new));
                settled.addAndGet(ids.size());
            }
        });
        Thread trimmer = Thread.ofPlatform().start(() -> {
            while (running.get()) {
                trimmed.addAndGet(events.trimSettled(stream));
            }
        });
        // at least 3 s, longer until the race has been run (over 1,000 trimmed) on a loaded machine, at most 30 s
        long started = System.nanoTime();
        do {
            Thread.sleep(100);
        } while (System.nanoTime() - started < 30_000_000_000L
                && (System.nanoTime() - started < 3_000_000_000L || trimmed.get() <= 1_000L));
        running.set(false);
        producer.join();
        worker.join();
        trimmer.join();
        SERVER.client().del(stream);

        assertThat("entries were trimmed, so the race was run", trimmed.get(), greaterThan(1_000L));
        assertThat("settled " + settled.get() + ", trimmed " + trimmed.get(), lostWhilePending.get(), is(0L));
    }

    @Test
    void aPendingEntryGoneFromTheStreamIsReportedLostNotDroppedByAReclaim() {
        long activity = System.currentTimeMillis() % 1_000_000_000L * 10 + 7;
        StockBuckets keys = StockBuckets.of(activity, 1, 1);
        new PreheatScript().preheat(SERVER.client(), keys, 0, 5, "ordering", Instant.now().plusSeconds(600), 1);
        new ReservationScript().reserve(SERVER.client(), keys, new ReservationId(activity, 1, 0, 1), 71, 1, "l", Instant.now(), seckill.redis.ReplicaAcks.NONE, seckill.reservation.api.BuyerWindow.NONE);
        StreamedReservations events = new StreamedReservations(SERVER.client(), Clock.systemUTC(),
                new ReservationSettings("ordering", 2_000, java.time.Duration.ofSeconds(30),
                        new seckill.redis.CoalescingSettings(true, 32, 0, 1), seckill.redis.ReplicaAcks.NONE));
        List<ReservationEvent> handedOut = events.readNew(keys.events(0), "crashed", 10);
        assertThat(handedOut.size(), is(1));
        // removed behind the group's back (an XTRIM MAXLEN, an XDEL by hand) while still pending
        SERVER.client().xdel(keys.events(0), new StreamEntryID(handedOut.getFirst().position().entryId()));

        assertThat(events.reclaimIdle(keys.events(0), "survivor", Duration.ZERO, 10), is(List.of()));
        BucketSnapshot snapshot = new SnapshotScript().take(SERVER.client(), keys, 0, "ordering", 100);
        assertThat(((BucketSnapshot.Taken) snapshot).lostEvents(), is(1L));
    }
}
