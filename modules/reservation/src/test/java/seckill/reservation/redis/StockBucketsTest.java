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
