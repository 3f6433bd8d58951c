package seckill.admission;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import seckill.redis.World;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.startsWith;

/**
 * Issue #34 (docs/rehearsal.md): admission's keys of a real activity are spelled as they always were; a
 * rehearsal's challenges, work stamps and throttles (the per-address one too) are written under rh: only,
 * and a challenge of one world is unknown in the other. On a real Redis.
 */
class RehearsalKeysTest {

    @RegisterExtension
    static final AdmissionRedis REDIS = AdmissionRedis.configuredOrOwn();

    @Test
    void aRealActivitysKeysAreUnchanged() {
        assertThat(TokenSpend.key(7, "t1"), is("sk:tok:{a7:t1}"));
        assertThat(ProofOfWork.key(7, "c1"), is("sk:pow:{c1}"));
        assertThat(TokenSpend.key(World.REHEARSAL_IDS_FROM + 7, "t1"), is("rh:tok:{a" + (World.REHEARSAL_IDS_FROM + 7) + ":t1}"));
    }

    @Test
    void aRehearsalsChallengesAndThrottlesWriteNoRealKey() {
        Clock clock = Clock.fixed(Instant.ofEpochMilli((System.nanoTime() % 1_000_000) * 60_000 + 1_000), ZoneOffset.UTC);
        long rehearsal = World.REHEARSAL_IDS_FROM + System.nanoTime() % 100_000;
        String address = "10.34.0." + (System.nanoTime() % 250);
        TreeSet<String> realBefore = new TreeSet<>(REDIS.client().keys("sk:*"));

        ChallengeThrottle throttle = new ChallengeThrottle(REDIS.client(), clock, 3, 10);
        assertThat(throttle.check(rehearsal, 1, address).isEmpty(), is(true));
        ProofOfWork work = new ProofOfWork(REDIS.client(), 60);
        String challenge = "rehearsal" + System.nanoTime();
        work.stamp(rehearsal, challenge, 0);
        assertThat("a rehearsal's challenge is unknown to a real activity",
                work.check(7, challenge, Optional.empty()), is(ProofOfWork.Verdict.UNKNOWN_CHALLENGE));
        assertThat(work.check(rehearsal, challenge, Optional.empty()), is(ProofOfWork.Verdict.PROVED));
        work.stamp(rehearsal, challenge + "b", 0);

        assertThat(new TreeSet<>(REDIS.client().keys("sk:*")), is(realBefore));
        var written = REDIS.client().keys("rh:*{*" + address + "}*");
        written.addAll(REDIS.client().keys("rh:*{a" + rehearsal + ":*"));
        written.addAll(REDIS.client().keys("rh:pow:{" + challenge + "b}"));
        assertThat(written, not(empty()));
        assertThat(written, everyItem(startsWith("rh:")));
        assertThat(written.size(), is(3));
        REDIS.client().del(written.toArray(String[]::new));
    }
}
