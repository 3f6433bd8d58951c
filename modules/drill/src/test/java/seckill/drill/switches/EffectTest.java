package seckill.drill.switches;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/** Judging one instance's time to effect against the bound, and a switch and a drill from those. */
class EffectTest {

    private static final Duration BOUND = Duration.ofSeconds(2);
    private static final Duration RESUME = Duration.ofSeconds(5);

    private static Effect effect(Long valueMillis, boolean probed, Long behaviourMillis) {
        return new Effect("http://a", "flip", "true", "true (switches:/x)", Optional.ofNullable(valueMillis).map(Duration::ofMillis),
                probed, Optional.ofNullable(behaviourMillis).map(Duration::ofMillis), "503 HALTED", Optional.empty());
    }

    @Test
    void withinTheBoundPassesAndTheBoundItselfIsWithin() {
        assertThat(effect(600L, false, null).verdict(BOUND), is(Effect.Verdict.PASS));
        assertThat(effect(600L, true, 700L).verdict(BOUND), is(Effect.Verdict.PASS));
        assertThat(effect(2_000L, true, 2_000L).verdict(BOUND), is(Effect.Verdict.PASS));
    }

    @Test
    void aValueOrABehaviourLateOrNeverSeenFails() {
        assertThat(effect(2_001L, false, null).verdict(BOUND), is(Effect.Verdict.FAIL));
        assertThat(effect(null, false, null).verdict(BOUND), is(Effect.Verdict.FAIL));
        assertThat(effect(500L, true, 4_100L).verdict(BOUND), is(Effect.Verdict.FAIL));
        assertThat(effect(500L, true, null).verdict(BOUND), is(Effect.Verdict.FAIL));
        assertThat(effect(500L, true, 4_100L).failure(BOUND).orElseThrow(), containsString("behaviour took 4100 ms"));
        assertThat(effect(null, false, null).failure(BOUND).orElseThrow(), containsString("not shown"));
        // the value alone is judged where no probe applies, however late a behaviour would have been
        assertThat(effect(500L, false, null).failure(BOUND), is(Optional.empty()));
    }

    @Test
    void aSwitchFailsWhenOneInstanceFailsAndIsSkippedOnlyWhenEveryMeasurementWas() {
        var pass = effect(500L, true, 600L);
        var fail = effect(3_000L, true, 3_100L);
        var skip = Effect.skipped("http://b", "flip", "halted before the drill");
        assertThat(skip.verdict(BOUND), is(Effect.Verdict.SKIPPED));
        assertThat(new SwitchReport.SwitchResult("k", "file", "0", "1", List.of(pass, fail)).verdict(BOUND, RESUME),
                is(Effect.Verdict.FAIL));
        assertThat(new SwitchReport.SwitchResult("k", "file", "0", "1", List.of(pass, skip)).verdict(BOUND, RESUME),
                is(Effect.Verdict.PASS));
        assertThat(new SwitchReport.SwitchResult("k", "file", "0", "1", List.of(skip)).verdict(BOUND, RESUME),
                is(Effect.Verdict.SKIPPED));
    }

    @Test
    void aResumeThroughTheEndpointIsJudgedByItsOwnBoundItsHaltByTheSwitchesBound() {
        var resumedIn3s = new Effect("http://a", "restore", "OPEN", "OPEN", Optional.of(Duration.ofMillis(3_000)), false,
                Optional.empty(), "", Optional.empty());
        var haltedIn3s = new Effect("http://a", "flip", "HALTED", "HALTED", Optional.of(Duration.ofMillis(3_000)), false,
                Optional.empty(), "", Optional.empty());
        assertThat(new SwitchReport.SwitchResult(HotSwitch.HALT_ENDPOINT, "endpoint", "OPEN", "HALTED",
                List.of(resumedIn3s)).verdict(BOUND, RESUME), is(Effect.Verdict.PASS));
        assertThat(new SwitchReport.SwitchResult(HotSwitch.HALT_ENDPOINT, "endpoint", "OPEN", "HALTED",
                List.of(haltedIn3s)).verdict(BOUND, RESUME), is(Effect.Verdict.FAIL));
        // a file's switch put back is a re-read like its flip: the switches' bound
        assertThat(new SwitchReport.SwitchResult("seckill.admission.halt", "file", "false", "true",
                List.of(resumedIn3s)).verdict(BOUND, RESUME), is(Effect.Verdict.FAIL));
    }

    @Test
    void eachSwitchFlipsAwayFromWhatIsInForceAndTheHaltIsNeverFlippedOff() {
        HotSwitch halt = HotSwitch.SALE_DAY.getFirst();
        assertThat(halt.flipFrom("false"), is(Optional.of("true")));
        assertThat(halt.flipFrom("true"), is(Optional.empty()));
        HotSwitch global = HotSwitch.SALE_DAY.stream().filter(s -> s.key().endsWith("global-rate")).findFirst().orElseThrow();
        assertThat(global.flipFrom("0"), is(Optional.of("1")));
        assertThat(global.flipFrom("1"), is(Optional.of("2")));
        assertThat(global.probedFlip("0", "1"), is(true));
        assertThat(global.probedFlip("1", "2"), is(false));
        HotSwitch queue = HotSwitch.SALE_DAY.stream().filter(s -> s.key().equals("seckill.queue.enabled")).findFirst().orElseThrow();
        assertThat(queue.flipFrom("false"), is(Optional.of("true")));
        assertThat(queue.flipFrom("true"), is(Optional.of("false")));
        assertThat(queue.probedFlip("true", "false"), is(false));
    }

    @Test
    void theReportFailsWhenAnySwitchFailedAndSaysWhy() {
        var report = new SwitchReport(java.time.Instant.EPOCH, java.time.Instant.EPOCH, "/x/switches.yaml",
                List.of(java.net.URI.create("http://a")), BOUND, RESUME, Duration.ofSeconds(10), Optional.of(7L),
                List.of(new SwitchReport.SwitchResult("seckill.admission.halt", "file", "false", "true",
                        List.of(effect(500L, true, 4_100L)))), List.of());
        assertThat(report.passed(), is(false));
        assertThat(report.exitCode(), is(1));
        assertThat(report.slowest(), is(Optional.of(Duration.ofMillis(4_100))));
        assertThat(report.json(), containsString("\"verdict\":\"FAIL\""));
        assertThat(report.json(), containsString("\"behaviourMillis\":4100"));
        assertThat(report.text(), containsString("behaviour took 4100 ms > bound 2000 ms"));
    }

    @Test
    void optionsParseAndRefuseWhatCannotWork() {
        var o = SwitchDrillOptions.parse(new String[] {"--instance", "http://a:1/", "--instance", "http://b:2",
                "--switches-file", "s.yaml", "--force"});
        assertThat(o.instances().toString(), is("[http://a:1, http://b:2]"));
        assertThat(o.bound(), is(Duration.ofSeconds(2)));
        assertThat(o.resumeBound(), is(Duration.ofSeconds(5)));
        assertThat(o.force(), is(true));
        assertThat(o.probes(), is(true));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> SwitchDrillOptions.parse(new String[] {"--switches-file", "s.yaml"}));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> SwitchDrillOptions.parse(new String[] {"--instance", "http://a", "--switches-file", "s",
                        "--bound-millis", "20000"}));
        assertThat(o.rehearsal(), is(false));
        var rehearsal = SwitchDrillOptions.parse(new String[] {"--instance", "http://a", "--switches-file", "s",
                "--rehearsal", "--edge-key-file", "edge.key"});
        assertThat(rehearsal.rehearsal(), is(true));
        assertThat(rehearsal.edgeKeyFile().orElseThrow().toString(), is("edge.key"));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> SwitchDrillOptions.parse(new String[] {"--instance", "http://a", "--switches-file", "s", "--rehearsal"}));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> SwitchDrillOptions.parse(new String[] {"--instance", "http://a", "--switches-file", "s",
                        "--edge-key-file", "edge.key"}));
    }
}
