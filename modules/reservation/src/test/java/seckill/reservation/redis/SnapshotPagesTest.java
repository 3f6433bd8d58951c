package seckill.reservation.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.XReadGroupParams;
import redis.clients.jedis.resps.StreamEntry;
import seckill.reservation.TestRedis;
import seckill.reservation.api.BucketSnapshot;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * The reconciliation snapshot counts a backlog of any size by pages (#29, item 11): on real Redis,
 * a bucket's stream holds acknowledged entries, entries pending with two consumers (with gaps where
 * some were acknowledged), one pending entry deleted from the stream, and never-delivered entries.
 * Every page size, from one entry per page up, lists exactly the unacknowledged ones in stream order
 * with their units, and the same figures as one page that holds them all. Entries of every shape
 * (issue #35: a call's reservations in one field, one packed field, or named fields) count alike, an
 * entry of a call by each of its reservations.
 */
class SnapshotPagesTest {

    @RegisterExtension
    static final TestRedis SERVER = new TestRedis();

    @Test
    void everyPageSizeCountsTheSameUnsettledEvents() {
        UnifiedJedis redis = SERVER.client();
        StockBuckets keys = StockBuckets.of(System.nanoTime() % 1_000_000_000L, 9, 1);
        String stream = keys.events(0);
        redis.set(keys.stock(0), "17");
        redis.set(keys.refilledUnits(0), "2");
        redis.xgroupCreate(stream, "ordering", new StreamEntryID(), true);
        List<StreamEntryID> ids = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            // both shapes of an event (ReservationEventFields): one packed field, or named fields
            String quantity = Integer.toString(1 + i % 3);
            // and a coalesced call's entry (issue #35's third step): two reservations in one field 'es'
            ids.add(redis.xadd(stream, StreamEntryID.NEW_ENTRY, i % 4 == 2
                    ? Map.of("es", "r" + i + ",7," + quantity + ",1767225600000,req,with,commas\n"
                            + "r" + i + "b,8," + quantity + ",1767225600000,other")
                    : i % 2 == 0
                    ? Map.of("e", "r" + i + ",7," + quantity + ",1767225600000,req,with,commas")
                    : Map.of("reservationId", "r" + i, "quantity", quantity)));
        }
        // 0..9 to consumer a, 10..24 to consumer b; 25..39 never delivered
        read(redis, stream, "a", 10);
        read(redis, stream, "b", 15);
        List<String> expected = new ArrayList<>();
        long units = 0;
        for (int i = 0; i < 25; i++) {
            if (i % 3 == 0) {
                redis.xack(stream, "ordering", ids.get(i));
            } else if (i == 11) {
                // pending, yet gone from the stream
                redis.xdel(stream, ids.get(i));
            } else {
                units += expect(expected, i);
            }
        }
        for (int i = 25; i < 40; i++) {
            units += expect(expected, i);
        }
        BucketSnapshot.Taken whole = (BucketSnapshot.Taken) new SnapshotScript().take(redis, keys, 0, "ordering", 1_000);
        assertThat(whole.unsettledReservations(), is(expected));
        assertThat(whole.unsettledUnits(), is(units));
        assertThat(whole.lostEvents(), is(1L));
        assertThat(whole.remaining(), is(17L));
        assertThat(whole.refilledUnits(), is(2L));
        for (int pageSize : new int[] {1, 2, 3, 7, 15, 16, 31}) {
            assertThat("page size " + pageSize, new SnapshotScript().take(redis, keys, 0, "ordering", pageSize),
                    is(whole));
        }
    }

    @Test
    void aStreamWithoutTheGroupIsAllUndelivered() {
        UnifiedJedis redis = SERVER.client();
        StockBuckets keys = StockBuckets.of(System.nanoTime() % 1_000_000_000L, 10, 1);
        redis.set(keys.stock(0), "5");
        for (int i = 0; i < 9; i++) {
            redis.xadd(keys.events(0), StreamEntryID.NEW_ENTRY, Map.of("reservationId", "u" + i, "quantity", "1"));
        }
        for (int pageSize : new int[] {1, 4, 9, 10}) {
            BucketSnapshot.Taken taken = (BucketSnapshot.Taken) new SnapshotScript().take(redis, keys, 0, "ordering",
                    pageSize);
            assertThat("page size " + pageSize, taken.unsettledReservations().size(), is(9));
            assertThat(taken.unsettledUnits(), is(9L));
        }
    }

    /** Entry {@code i}'s reservations added to {@code expected}; returns their units. */
    private static long expect(List<String> expected, int i) {
        expected.add("r" + i);
        if (i % 4 == 2) {
            expected.add("r" + i + "b");
            return 2L * (1 + i % 3);
        }
        return 1 + i % 3;
    }

    private static void read(UnifiedJedis redis, String stream, String consumer, int count) {
        List<Map.Entry<String, List<StreamEntry>>> reply = redis.xreadGroup("ordering", consumer,
                XReadGroupParams.xReadGroupParams().count(count), Map.of(stream, StreamEntryID.XREADGROUP_UNDELIVERED_ENTRY));
        assertThat(reply.getFirst().getValue().size(), is(count));
    }
}
