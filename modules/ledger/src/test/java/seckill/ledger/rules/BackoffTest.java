package seckill.ledger.rules;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

class BackoffTest {

    @Test
    void theFirstFailurePausesATenthOfASecondAndEachFurtherOneDoubles() {
        Backoff backoff = new Backoff(5_000);
        assertThat(backoff.afterFailure(), is(100L));
        assertThat(backoff.afterFailure(), is(200L));
        assertThat(backoff.afterFailure(), is(400L));
        assertThat(backoff.afterFailure(), is(800L));
    }

    @Test
    void thePauseNeverExceedsTheLongest() {
        Backoff backoff = new Backoff(5_000);
        for (int i = 0; i < 6; i++) {
            backoff.afterFailure();
        }
        assertThat(backoff.afterFailure(), is(5_000L));
        assertThat(backoff.afterFailure(), is(5_000L));
    }

    @Test
    void aSuccessStartsItOver() {
        Backoff backoff = new Backoff(5_000);
        backoff.afterFailure();
        backoff.afterFailure();
        backoff.afterSuccess();
        assertThat(backoff.afterFailure(), is(100L));
    }

    @Test
    void aLongestPauseBelowATenthIsKept() {
        Backoff backoff = new Backoff(50);
        assertThat(backoff.afterFailure(), is(50L));
        assertThat(backoff.afterFailure(), is(50L));
    }
}
