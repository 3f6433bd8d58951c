package seckill.admission.rules;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static seckill.admission.rules.SecondBudget.Take.LEASE;
import static seckill.admission.rules.SecondBudget.Take.SPENT;
import static seckill.admission.rules.SecondBudget.Take.TAKEN;

class SecondBudgetTest {

    @Test
    void aLeaseIsSpentTokenByTokenThenAnotherIsAskedFor() {
        SecondBudget budget = new SecondBudget();
        assertThat(budget.take(5_000), is(LEASE));
        budget.leased(5, 2);
        assertThat(budget.take(5_100), is(TAKEN));
        assertThat(budget.take(5_200), is(TAKEN));
        assertThat(budget.take(5_300), is(LEASE));
    }

    @Test
    void onceRedisSaysTheSecondIsSpentEveryAttemptIsRefusedInMemoryUntilTheNextSecond() {
        SecondBudget budget = new SecondBudget();
        budget.leased(7, 0);
        for (int i = 0; i < 1_000; i++) {
            assertThat(budget.take(7_000 + i % 1_000), is(SPENT));
        }
        assertThat(budget.take(8_000), is(LEASE));
    }

    @Test
    void tokensDoNotOutliveTheirSecondAndLateGrantsAreDropped() {
        SecondBudget budget = new SecondBudget();
        budget.leased(3, 100);
        assertThat(budget.take(3_999), is(TAKEN));
        assertThat(budget.take(4_000), is(LEASE));
        budget.leased(3, 50);  // a lease for second 3 answered after second 4 began
        assertThat(budget.take(4_001), is(LEASE));
    }

    @Test
    void aTokenGivenBackIsTakenAgainWithinItsSecondOnly() {
        SecondBudget budget = new SecondBudget();
        budget.leased(9, 1);
        assertThat(budget.take(9_000), is(TAKEN));
        budget.giveBack(9_500);
        assertThat(budget.take(9_600), is(TAKEN));
        budget.giveBack(10_100);
        assertThat(budget.take(10_200), is(LEASE));
    }

    @Test
    void itRunsLowBelowHalfAChunkUntilRedisSaysTheSecondIsSpent() {
        SecondBudget budget = new SecondBudget();
        budget.leased(2, 10);
        for (int i = 0; i < 6; i++) {  // 10 down to 5 left: not yet below half of 10
            assertThat(budget.runningLow(2_000, 10), is(false));
            assertThat(budget.take(2_000), is(TAKEN));
        }
        assertThat(budget.runningLow(2_000, 10), is(true));
        budget.leased(2, 10);
        assertThat(budget.runningLow(2_000, 10), is(false));
        budget.leased(2, 0);
        assertThat(budget.runningLow(2_000, 10), is(false));
        // a new second starts empty: low until its first lease
        assertThat(budget.runningLow(3_000, 10), is(true));
    }

    @Test
    void aChunkIsATenthOfTheRateAndAtLeastOne() {
        assertThat(SecondBudget.chunk(3_000), is(300L));
        assertThat(SecondBudget.chunk(5), is(1L));
    }
}
