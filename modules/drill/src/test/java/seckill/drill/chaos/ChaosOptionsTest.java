package seckill.drill.chaos;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ChaosOptionsTest {

    @Test
    void theDocumentedOptionsParse() {
        ChaosOptions o = ChaosOptions.parse(new String[] {"--seed", "7", "--minutes", "1.5", "--instances", "3"});
        assertThat(o.seed(), is(7L));
        assertThat(o.duration(), is(Duration.ofSeconds(90)));
        assertThat(o.instances(), is(3));
        assertThat(o.history(), is(Path.of("chaos-7.jsonl")));
        assertThat(o.resumeBound(), is(Duration.ofSeconds(60)));
        assertThat(o.topology(), is(Topology.SINGLE));
        assertThat(ChaosOptions.parse(new String[] {"--seed", "7", "--topology", "cluster"}).topology(),
                is(Topology.CLUSTER));
        assertThat(ChaosOptions.parse(new String[] {"--seed", "7", "--topology", "sentinel"}).topology(),
                is(Topology.SENTINEL));
    }

    @Test
    void theBuyersPaceScalesTheBuyersAndLeavesTheStandardScheduleAlone() {
        ChaosOptions standard = ChaosOptions.parse(new String[] {"--seed", "7"});
        assertThat(standard.buyerOpsPerSecond(), is(15));
        assertThat(standard.shape(), is(PlanShape.standard()));
        PlanShape fast = ChaosOptions.parse(new String[] {"--seed", "7", "--buyer-ops-per-second", "300"}).shape();
        assertThat(fast.buyerOpsPerSecond(), is(300));
        assertThat(fast.buyers(), is(8_000));
        assertThat(fast.skus(), is(PlanShape.standard().skus()));
        // a tenth of a minute at 300 a second: twenty times the clicks of the standard pace
        long standardClicks = new ChaosPlan(new java.util.SplittableRandom(7), PlanShape.standard()).draw(6_000, 2)
                .stream().filter(step -> step.kind() == Step.Kind.PURCHASE).count();
        long fastClicks = new ChaosPlan(new java.util.SplittableRandom(7), fast).draw(6_000, 2)
                .stream().filter(step -> step.kind() == Step.Kind.PURCHASE).count();
        assertThat(fastClicks > 15 * standardClicks, is(true));
        assertThat(assertThrows(IllegalArgumentException.class, () -> ChaosOptions.parse(
                new String[] {"--seed", "1", "--buyer-ops-per-second", "0"})).getMessage(), containsString("1..5000"));
    }

    @Test
    void aRunWithoutASeedOrWithAnUnknownOptionIsRefused() {
        assertThat(assertThrows(IllegalArgumentException.class, () -> ChaosOptions.parse(new String[] {"--minutes", "1"}))
                .getMessage(), containsString("--seed is required"));
        assertThat(assertThrows(IllegalArgumentException.class, () -> ChaosOptions.parse(
                new String[] {"--seed", "1", "--shards", "3"})).getMessage(), containsString("unknown option"));
        assertThat(assertThrows(IllegalArgumentException.class, () -> ChaosOptions.parse(
                new String[] {"--seed", "1", "--topology", "mesh"})).getMessage(), containsString("single, sentinel or cluster"));
    }
}
