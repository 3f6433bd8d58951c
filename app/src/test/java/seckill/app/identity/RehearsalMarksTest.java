package seckill.app.identity;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import seckill.redis.World;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The edge's signed mark of rehearsal traffic (issue #34, docs/rehearsal.md): only a mark the edge signed
 * for this rehearsal, this buyer and about now reaches a rehearsal; any mark on a real activity is refused.
 */
class RehearsalMarksTest {

    private static final String KEY = "rehearsal-edge-key-of-at-least-32-chars";
    private static final Instant NOW = Instant.parse("2030-01-01T10:00:00Z");
    private static final long T = NOW.getEpochSecond();
    private static final long REHEARSAL = World.REHEARSAL_IDS_FROM + 3;
    private static final long REAL = 3;
    private static final long BUYER = 42;

    private final RehearsalMarks marks = new RehearsalMarks(Optional.of(KEY), Duration.ofSeconds(30),
            Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void theEdgesMarkForThisRehearsalAndBuyerReachesIt() {
        assertThat(marks.judge(REHEARSAL, BUYER, marks.markOf(REHEARSAL, BUYER, T)), is(RehearsalMarks.Verdict.REHEARSAL));
        assertThat(marks.judge(REHEARSAL, BUYER, marks.markOf(REHEARSAL, BUYER, T - 30)), is(RehearsalMarks.Verdict.REHEARSAL));
    }

    @Test
    void aRehearsalWithoutAValidMarkIsHidden() {
        String mark = marks.markOf(REHEARSAL, BUYER, T);
        assertThat("no mark", marks.judge(REHEARSAL, BUYER, null), is(RehearsalMarks.Verdict.HIDDEN));
        assertThat("empty", marks.judge(REHEARSAL, BUYER, ""), is(RehearsalMarks.Verdict.HIDDEN));
        assertThat("another buyer's", marks.judge(REHEARSAL, BUYER + 1, mark), is(RehearsalMarks.Verdict.HIDDEN));
        assertThat("nobody", marks.judge(REHEARSAL, 0, mark), is(RehearsalMarks.Verdict.HIDDEN));
        assertThat("another rehearsal's", marks.judge(REHEARSAL + 1, BUYER, mark), is(RehearsalMarks.Verdict.HIDDEN));
        assertThat("stale", marks.judge(REHEARSAL, BUYER, marks.markOf(REHEARSAL, BUYER, T - 31)), is(RehearsalMarks.Verdict.HIDDEN));
        assertThat("from the future", marks.judge(REHEARSAL, BUYER, marks.markOf(REHEARSAL, BUYER, T + 31)), is(RehearsalMarks.Verdict.HIDDEN));
        assertThat("tampered", marks.judge(REHEARSAL, BUYER, mark.substring(0, mark.length() - 1)
                + (mark.endsWith("0") ? "1" : "0")), is(RehearsalMarks.Verdict.HIDDEN));
        assertThat("the activity rewritten", marks.judge(REHEARSAL + 1, BUYER,
                mark.replace("a=" + REHEARSAL, "a=" + (REHEARSAL + 1))), is(RehearsalMarks.Verdict.HIDDEN));
        assertThat("garbage", marks.judge(REHEARSAL, BUYER, "a=1,t=x,v1=zz"), is(RehearsalMarks.Verdict.HIDDEN));
        RehearsalMarks other = new RehearsalMarks(Optional.of("another-edge-key-of-at-least-32-chars"),
                Duration.ofSeconds(30), Clock.fixed(NOW, ZoneOffset.UTC));
        assertThat("under another key", marks.judge(REHEARSAL, BUYER, other.markOf(REHEARSAL, BUYER, T)),
                is(RehearsalMarks.Verdict.HIDDEN));
        RehearsalMarks keyless = new RehearsalMarks(Optional.empty(), Duration.ofSeconds(30), Clock.fixed(NOW, ZoneOffset.UTC));
        assertThat("no key configured", keyless.judge(REHEARSAL, BUYER, mark), is(RehearsalMarks.Verdict.HIDDEN));
    }

    @Test
    void aRealActivityIsRealWithoutAMarkAndRefusedWithOne() {
        assertThat(marks.judge(REAL, BUYER, null), is(RehearsalMarks.Verdict.REAL));
        assertThat(marks.judge(REAL, BUYER, marks.markOf(REAL, BUYER, T)), is(RehearsalMarks.Verdict.MARK_ON_REAL));
        assertThat(marks.judge(REAL, BUYER, marks.markOf(REHEARSAL, BUYER, T)), is(RehearsalMarks.Verdict.MARK_ON_REAL));
        assertThat(marks.judge(REAL, BUYER, "x"), is(RehearsalMarks.Verdict.MARK_ON_REAL));
    }

    @Test
    void aShortKeyIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> new RehearsalMarks(Optional.of("short"), Duration.ofSeconds(30), Clock.systemUTC()));
    }

    /** seckill.rehearsal.edge-key is read with the identity settings: 32+ characters, never the gateway's key. */
    @Test
    void theEdgeKeyInTheIdentitySettingsIsLongAndNotTheGateways() {
        assertThat(settings(Optional.of("gateway-key"), Optional.of(KEY)).rehearsalEdgeKey(), is(Optional.of(KEY)));
        assertThat(settings(Optional.empty(), Optional.empty()).rehearsalEdgeKey(), is(Optional.empty()));
        assertThrows(IllegalArgumentException.class, () -> settings(Optional.empty(), Optional.of("short")));
        assertThrows(IllegalArgumentException.class, () -> settings(Optional.of(KEY), Optional.of(KEY)));
    }

    private static IdentitySettings settings(Optional<String> gatewayKey, Optional<String> edgeKey) {
        return new IdentitySettings(IdentitySettings.Mode.BEARER, java.util.Map.of(), Optional.empty(), "seckill",
                Optional.empty(), Duration.ofSeconds(30), java.util.Set.of("HS256"), 10, Duration.ofSeconds(1), gatewayKey,
                Duration.ofSeconds(30), "X-User-Signature", "", false, Duration.ofHours(1), edgeKey);
    }
}
