package seckill.queue.rules;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.closeTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The line's rules, plain logic. */
class RulesTest {

    @Test
    void theRateIsSpreadOverTheSecondAndNeverExceeded() {
        assertThat(RateBudget.allowedBy(100, 0), is(1L));
        assertThat(RateBudget.allowedBy(100, 99), is(10L));
        assertThat(RateBudget.allowedBy(100, 499), is(50L));
        assertThat(RateBudget.allowedBy(100, 999), is(100L));
        assertThat(RateBudget.allowedBy(100, 5000), is(100L));
        assertThat(RateBudget.allowedBy(3, 0), is(1L));
        assertThat(RateBudget.allowedBy(0, 500), is(0L));
        for (long rate : new long[] {1, 7, 100, 12_345}) {
            long previous = 0;
            for (int ms = 0; ms < 1000; ms++) {
                long allowed = RateBudget.allowedBy(rate, ms);
                assertThat(allowed >= previous && allowed <= rate, is(true));
                previous = allowed;
            }
            assertThat(previous, is(rate));
        }
    }

    @Test
    void positionCountsTheBuyerThemselves() {
        assertThat(Position.of(0), is(1L));
        assertThat(Position.of(41), is(42L));
        assertThrows(IllegalArgumentException.class, () -> Position.of(-1));
    }

    @Test
    void theWaitIsAheadOverTheRateCorrectedByWhatIsCalled() {
        assertThat(WaitEstimate.seconds(0, 10, -1), is(0L));
        assertThat(WaitEstimate.seconds(100, 10, -1), is(10L));
        assertThat(WaitEstimate.seconds(101, 10, -1), is(11L));
        // measured slower (passes held by the units left): the measured rate
        assertThat(WaitEstimate.seconds(100, 10, 2.5), is(40L));
        // never faster than the operator's rate, and an empty line's 0 says nothing
        assertThat(WaitEstimate.seconds(100, 10, 50), is(10L));
        assertThat(WaitEstimate.seconds(100, 10, 0), is(10L));
        assertThat(WaitEstimate.seconds(100, 0, 5), is(WaitEstimate.UNKNOWN));
    }

    @Test
    void theRateIsMeasuredFromTheCalledTotal() {
        MeasuredRate rate = new MeasuredRate(5_000);
        assertThat(rate.perSecond(), is(-1.0));
        rate.sample(0, 0);
        rate.sample(500, 10);
        assertThat(rate.perSecond(), is(-1.0));
        rate.sample(2_000, 40);
        assertThat(rate.perSecond(), closeTo(20, 0.001));
        for (int s = 3; s <= 20; s++) {
            rate.sample(s * 1000L, 40 + (s - 2) * 5L);
        }
        assertThat(rate.perSecond(), closeTo(5, 0.001));
        // a total that went back (a failover lost some): measuring starts again
        rate.sample(21_000, 3);
        assertThat(rate.perSecond(), is(-1.0));
    }

    @Test
    void rankCorrelationIsOneForTheSameOrderMinusOneReversedAndNearZeroShuffled() {
        List<Integer> order = IntStream.range(0, 1000).boxed().toList();
        assertThat(RankCorrelation.spearman(order, order), closeTo(1, 1e-9));
        List<Integer> reversed = new ArrayList<>(order);
        Collections.reverse(reversed);
        assertThat(RankCorrelation.spearman(order, reversed), closeTo(-1, 1e-9));
        List<Integer> shuffled = new ArrayList<>(order);
        Collections.shuffle(shuffled, new java.util.Random(7));
        assertThat(Math.abs(RankCorrelation.spearman(order, shuffled)), lessThan(0.1));
    }

    @Test
    void drawsOrderThePreQueueIndependentlyOfArrivalAndRepeatWithTheSeed() {
        List<Long> first = draws(new SplittableRandom(42), 500);
        assertThat(draws(new SplittableRandom(42), 500), is(first));
        for (long draw : first) {
            assertThat(draw >= 0 && draw < (1L << 53), is(true));
        }
        List<Integer> arrival = IntStream.range(0, 500).boxed().toList();
        List<Integer> drawn = new ArrayList<>(arrival);
        drawn.sort(Comparator.comparing(first::get));
        assertThat(Math.abs(RankCorrelation.spearman(arrival, drawn)), lessThan(0.15));
    }

    private static List<Long> draws(SplittableRandom random, int count) {
        List<Long> draws = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            draws.add(Long.parseLong(PreQueueShuffle.draw(random)));
        }
        return draws;
    }
}
