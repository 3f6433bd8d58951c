package seckill.reservation.redis;

import java.util.List;

import org.junit.jupiter.api.Test;
import seckill.reservation.api.ReservationId;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;

class StockBucketsTest {

    @Test
    void allKeysOfABucketShareOneHashTag() {
        List<String> keys = StockBuckets.bucketKeys(12, 34, 2);
        assertThat(keys, everyItem(containsString("{a12:s34:b2}")));
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
