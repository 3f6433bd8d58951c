package seckill.admission;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * The challenge limits on a real Redis: the buyer's own limit first, the address' as a coarse backstop
 * that many buyers behind one proxy share. Uses SECKILL_REDIS_URI when set, else an embedded redis-server.
 */
class ChallengeThrottleTest {

    @RegisterExtension
    static final AdmissionRedis REDIS = AdmissionRedis.configuredOrOwn();

    @Test
    void theBuyersLimitComesFirstAndTheAddressIsABackstop() {
        // a minute of its own, so other runs' counters never meet this one's
        Clock clock = Clock.fixed(Instant.ofEpochMilli((System.nanoTime() % 1_000_000) * 60_000 + 1_000), ZoneOffset.UTC);
        ChallengeThrottle throttle = new ChallengeThrottle(REDIS.client(), clock, 3, 10);
        String proxy = "10.9.8." + (System.nanoTime() % 250);
        long activity = 900_000 + System.nanoTime() % 100_000;
        for (int i = 0; i < 5; i++) {
            var refused = throttle.check(activity, 1, proxy);
            assertThat("ask #" + (i + 1) + " of one buyer", refused.map(ChallengeThrottle.Refusal::limit).orElse("-"),
                    is(i < 3 ? "-" : "BUYER"));
        }
        // the three the first buyer got count against the address: seven more buyers, then the backstop
        for (long buyer = 2; buyer <= 8; buyer++) {
            assertThat(throttle.check(activity, buyer, proxy).isEmpty(), is(true));
        }
        assertThat(throttle.check(activity, 9, proxy).map(ChallengeThrottle.Refusal::limit).orElse("-"), is("ADDRESS"));
        assertThat("another address is not held back", throttle.check(activity, 10, proxy + "1").isEmpty(), is(true));
    }
}
