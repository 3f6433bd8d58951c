package seckill.admission;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPooled;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * A sold-out mark lapses after its lifetime of real (monotonic) time, whatever the wall clock does
 * meanwhile (the chaos drill's {@code CLOCK_MOVE}: an instance's clock moved by minutes, then put back).
 * A mark is only a shortcut for "Redis said sold out"; a restock whose broadcast was lost must cost at
 * most the lifetime of wrong 410s, not the lifetime plus however far the clock jumped. The marks take
 * no wall clock at all now; when they did, this test (then injecting a wall clock it moved by 2 minutes)
 * failed in all three cases.
 */
class SoldOutFlagsClockTest {

    private final AtomicLong nanos = new AtomicLong(-5_000_000_000L); // monotonic: any origin, negative too
    private final SoldOutFlags flags = new SoldOutFlags(nanos::get, Duration.ofSeconds(1));

    private void elapse(long millis) {
        nanos.addAndGet(millis * 1_000_000L);
    }

    @Test
    void aMarkLapsesAfterItsLifetimeOfMonotonicTime() {
        flags.set(1, 1);
        elapse(999);
        assertThat(flags.isSet(1, 1), is(true));
        elapse(2);
        assertThat(flags.isSet(1, 1), is(false));
    }

    @Test
    void aRestockKeepsLateSoldOutsFromRaisingAMarkForALifetimeThenNoLonger() {
        flags.set(1, 3);
        flags.clear(1, 3);
        assertThat(flags.isSet(1, 3), is(false));
        elapse(500);
        // a "sold out" seen before the restock, arriving after it, raises no mark
        flags.set(1, 3);
        assertThat(flags.isSet(1, 3), is(false));
        elapse(600);
        flags.set(1, 3);
        assertThat(flags.isSet(1, 3), is(true));
    }

    @Test
    void theBroadcastsMarksLiveTheirLifetimeOfRealTime() throws Exception {
        try (JedisPooled unreachable = new JedisPooled("127.0.0.1", 1)) {
            SoldOutBroadcast broadcast = new SoldOutBroadcast(unreachable, 1);
            broadcast.init();
            broadcast.soldOut(1, 2);
            assertThat(broadcast.flags().isSet(1, 2), is(true));
            Thread.sleep(1_300);
            assertThat(broadcast.flags().isSet(1, 2), is(false));
        }
    }
}
