package seckill.ledger.rules;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RefusalCountTest {

    @Test
    void onlyTheLastAllowedRefusalDeadLetters() {
        RefusalCount rule = new RefusalCount(3);
        assertThat(rule.after(1), is(RefusalCount.Next.RETRY_LATER));
        assertThat(rule.after(2), is(RefusalCount.Next.RETRY_LATER));
        assertThat(rule.after(3), is(RefusalCount.Next.DEAD_LETTER));
        // a count that ran past the limit (two workers refused at once) still dead-letters
        assertThat(rule.after(4), is(RefusalCount.Next.DEAD_LETTER));
    }

    @Test
    void oneRefusalIsTheLeastThatCanBeAllowed() {
        assertThat(new RefusalCount(1).after(1), is(RefusalCount.Next.DEAD_LETTER));
        assertThrows(IllegalArgumentException.class, () -> new RefusalCount(0));
    }
}
