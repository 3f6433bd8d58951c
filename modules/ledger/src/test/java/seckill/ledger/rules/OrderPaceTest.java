package seckill.ledger.rules;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

class OrderPaceTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void noCapGrantsEverything() {
        OrderPace pace = new OrderPace(0);
        assertThat(pace.grant(100, 0, 0), is(100));
        assertThat(pace.grant(100, 1, 0), is(100));
    }

    @Test
    void aCapGrantsOneSecondsWorthThenRefillsAtTheRate() {
        OrderPace pace = new OrderPace(0);
        assertThat(pace.grant(100, 0, 150), is(100));
        assertThat(pace.grant(100, 0, 150), is(50));
        assertThat(pace.grant(100, 0, 150), is(0));
        // a tenth of a second later: 15 more
        assertThat(pace.grant(100, SECOND / 10, 150), is(15));
        // a long pause never banks more than one second's worth
        assertThat(pace.grant(1_000, 60 * SECOND, 150), is(150));
    }

    @Test
    void whatTheStreamDidNotHaveIsGivenBack() {
        OrderPace pace = new OrderPace(0);
        assertThat(pace.grant(100, 0, 100), is(100));
        pace.giveBack(70);
        assertThat(pace.grant(100, 0, 100), is(70));
    }

    @Test
    void overASimulatedMinuteTheRateIsTheCap() {
        OrderPace pace = new OrderPace(0);
        long granted = 0;
        for (long t = 0; t <= 60 * SECOND; t += SECOND / 50) {
            granted += pace.grant(100, t, 2_000);
        }
        // one second's burst, then 2,000 per second for 60 s
        assertThat(granted, is(2_000L + 60 * 2_000L));
    }

    @Test
    void aWorkerPollingEveryMillisecondGetsWholeBatchesNotCrumbs() {
        OrderPace pace = new OrderPace(0);
        while (pace.grant(100, 0, 2_000) > 0) {
            // the first second's worth, at once
        }
        java.util.List<Integer> grants = new java.util.ArrayList<>();
        for (long t = SECOND / 1_000; t <= SECOND; t += SECOND / 1_000) {
            int granted = pace.grant(100, t, 2_000);
            if (granted > 0) {
                grants.add(granted);
            }
        }
        // 2,000 in a second as 20 batches of 100: each batch is one ledger transaction, and 1,000
        // transactions of two orders would cost the database far more than the cap saves it
        assertThat(grants, is(java.util.Collections.nCopies(20, 100)));
    }

    @Test
    void eventsBeyondAGrantAreTakenOnlyWhenTheBucketHoldsThem() {
        OrderPace pace = new OrderPace(0);
        // an entry of 21 reservations read under a grant of 100 that the stream filled with 84
        assertThat(pace.grant(100, 0, 100), is(100));
        assertThat(pace.take(5, 0, 100), is(false));
        // 0.05 s later the bucket holds 5
        assertThat(pace.take(5, SECOND / 20, 100), is(true));
        assertThat(pace.take(1, SECOND / 20, 100), is(false));
        // an entry larger than a second's worth waits for a full bucket, then leaves it in debt
        assertThat(pace.take(150, SECOND, 100), is(false));
        assertThat(pace.take(150, 2 * SECOND, 100), is(true));
        assertThat(pace.grant(100, 2 * SECOND + SECOND / 4, 100), is(0));
        assertThat(pace.grant(100, 2 * SECOND + SECOND * 6 / 10, 100), is(10));
        // no cap: always
        assertThat(pace.take(1_000, 0, 0), is(true));
    }
}
