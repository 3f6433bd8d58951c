package seckill.reservation.redis;

import java.util.List;

import org.junit.jupiter.api.Test;
import redis.clients.jedis.util.JedisClusterCRC16;
import seckill.reservation.api.ReservationId;
import seckill.redis.SlotSpread;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.startsWith;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;

class StockBucketsTest {

    @Test
    void allKeysOfABucketShareOneHashTag() {
        StockBuckets buckets = StockBuckets.of(12, 34, 4);
        List<String> keys = buckets.bucketKeys(2);
        assertThat(keys, everyItem(containsString(buckets.tag(2))));
        assertThat(buckets.tag(2), startsWith("{a12:s34:b2"));
        assertThat(StockBuckets.of(12, 34, 1).stock(0), is("sk:{a12:s34:b0}:stock"));
    }

    /**
     * Issue #34: a real activity's keys are spelled as they always were; a rehearsal's (an id from
     * World.REHEARSAL_IDS_FROM up) are the same keys under rh:, on the same slots, listed in their own registry.
     */
    @Test
    void aRealActivitysKeysAreUnchangedAndARehearsalsLiveUnderItsOwnPrefix() {
        StockBuckets real = StockBuckets.of(12, 34, 1);
        assertThat(List.of(real.stock(0), real.buyers(0), real.events(0), real.refilled(0), real.refilledUnits(0),
                real.served(0), real.preheatMarker(0), real.deadLetters(0), real.lost(0), real.windows(0, 1000, 7),
                real.key(0, "stock"), real.streamRegistry()), is(List.of("sk:{a12:s34:b0}:stock", "sk:{a12:s34:b0}:buyers",
                "sk:{a12:s34:b0}:events", "sk:{a12:s34:b0}:refilled", "sk:{a12:s34:b0}:refilled-units",
                "sk:{a12:s34:b0}:served", "sk:{a12:s34:b0}:preheat", "sk:{a12:s34:b0}:dead", "sk:{a12:s34:b0}:lost",
                "sk:{a12:s34:b0}:w1000:7", "sk:{a12:s34:b0}:stock", "sk:streams")));
        assertThat(real.world(), is(seckill.redis.World.REAL));
        assertThat(StockBuckets.STREAM_REGISTRY, is("sk:streams"));
        assertThat(seckill.reservation.api.StockAudit.bucketKey(12, 34, 0, 1, "stock"), is("sk:{a12:s34:b0}:stock"));

        long rehearsal = seckill.redis.World.REHEARSAL_IDS_FROM + 12;
        StockBuckets shadow = StockBuckets.of(rehearsal, 34, 4);
        assertThat(shadow.world(), is(seckill.redis.World.REHEARSAL));
        assertThat(shadow.streamRegistry(), is("rh:streams"));
        for (int b = 0; b < 4; b++) {
            for (String key : List.of(shadow.stock(b), shadow.buyers(b), shadow.events(b), shadow.refilled(b),
                    shadow.refilledUnits(b), shadow.served(b), shadow.preheatMarker(b), shadow.deadLetters(b),
                    shadow.lost(b), shadow.windows(b, 1000, 7))) {
                assertThat(key, startsWith("rh:{a" + rehearsal + ":s34:b" + b));
                assertThat(JedisClusterCRC16.getSlot(key), is(SlotSpread.slotOf(shadow.tag(b).substring(1, shadow.tag(b).length() - 1))));
            }
        }
        assertThat(StockBuckets.lostOf(shadow.events(1)), is(shadow.lost(1)));
        assertThat(StockBuckets.deadLettersOf(shadow.events(1)), is(shadow.deadLetters(1)));
    }

    @Test
    void theBucketsOfOneSkuLandOnEqualSlotRanges() {
        for (int count : new int[] {2, 3, 6, 64}) {
            StockBuckets buckets = StockBuckets.of(7, 1001, count);
            for (int b = 0; b < count; b++) {
                String tag = buckets.tag(b);
                int slot = SlotSpread.slotOf(tag.substring(1, tag.length() - 1));
                assertThat(tag + " of " + count, slot * count / SlotSpread.SLOTS, is(b));
            }
        }
        // three buckets on a default three-master cluster (0-5460, 5461-10922, 10923-16383): one each
        StockBuckets three = StockBuckets.of(99, 5, 3);
        int[] bounds = {0, 5461, 10923, SlotSpread.SLOTS};
        for (int b = 0; b < 3; b++) {
            int slot = JedisClusterCRC16.getSlot(three.stock(b));
            assertThat(slot, greaterThanOrEqualTo(bounds[b]));
            assertThat(slot, lessThan(bounds[b + 1]));
        }
    }

    @Test
    void aBuyersHomeBucketIsStableAndInRange() {
        for (long user = 1; user < 5_000; user++) {
            int bucket = StockBuckets.homeBucket(user, 8);
            assertThat(bucket, greaterThanOrEqualTo(0));
            assertThat(bucket, lessThan(8));
            assertThat(StockBuckets.homeBucket(user, 8), is(bucket));
            assertThat(StockBuckets.homeBucket(user, 1), is(0));
        }
    }

    @Test
    void reservationIdsRoundTripThroughText() {
        ReservationId id = new ReservationId(5, 1001, 3, 123_456_789_012L);
        assertThat(ReservationId.parse(id.toString()).orElseThrow(), is(id));
        assertThat(ReservationId.parse("5-1001-3-").isPresent(), is(false));
        assertThat(ReservationId.parse("0-1-0-a").isPresent(), is(false));
        assertThat(ReservationId.parse("5-1001-3-ABC").isPresent(), is(false));
        assertThat(ReservationId.parse(null).isPresent(), is(false));
    }
}
