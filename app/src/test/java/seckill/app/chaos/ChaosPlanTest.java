package seckill.app.chaos;

import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.not;

/** The schedule is a function of the seed alone, and holds what the drill promises to exercise. */
class ChaosPlanTest {

    private static List<Step> draw(long seed) {
        return new ChaosPlan(new SplittableRandom(seed), PlanShape.standard()).draw(60_000, 2);
    }

    @Test
    void theSameSeedDrawsTheSameSchedule() {
        assertThat(draw(42), is(draw(42)));
        assertThat(draw(42), is(not(draw(43))));
    }

    @Test
    void aScheduleHoldsEveryKindOfStepAndEveryFault() {
        List<Step> plan = draw(42);
        assertThat(plan.stream().map(Step::kind).distinct().toList(), hasItems(Step.Kind.values()));
        assertThat(plan.stream().map(Step::atMillis).toList(), everyItem(lessThan(60_000L)));
        assertThat(plan.stream().filter(s -> s.kind() == Step.Kind.PAY).map(Step::variant).distinct().count(), is(3L));
    }

    @Test
    void faultsOverlap() {
        List<Step> faults = draw(42).stream().filter(s -> s.kind().fault()).toList();
        long overlapping = faults.stream().filter(a -> faults.stream().anyMatch(b -> a != b
                && a.atMillis() < b.atMillis() + b.lengthMillis() && b.atMillis() < a.atMillis() + a.lengthMillis()))
                .count();
        assertThat(overlapping, greaterThan(1L));
    }

    @Test
    void retriesAndReusedIdsReferToAnEarlierPurchaseOfTheSameBuyer() {
        List<Step> plan = draw(7);
        plan.stream().filter(s -> s.kind() == Step.Kind.RETRY || s.kind() == Step.Kind.REUSED_ID).forEach(s -> {
            Step first = plan.get(s.ref());
            assertThat(first.kind(), is(Step.Kind.PURCHASE));
            assertThat(first.buyer(), is(s.buyer()));
            assertThat(first.requestId(), is(s.requestId()));
            assertThat(first.atMillis() <= s.atMillis(), is(true));
        });
    }
}
