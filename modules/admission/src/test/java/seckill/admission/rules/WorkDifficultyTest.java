package seckill.admission.rules;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

class WorkDifficultyTest {

    @Test
    void theBaseHoldsUnderTheThresholdThenOneBitPerDoublingUpToTheCap() {
        assertThat(WorkDifficulty.bits(14, 22, 50, 0), is(14));
        assertThat(WorkDifficulty.bits(14, 22, 50, 49.9), is(14));
        assertThat(WorkDifficulty.bits(14, 22, 50, 50), is(15));
        assertThat(WorkDifficulty.bits(14, 22, 50, 99), is(15));
        assertThat(WorkDifficulty.bits(14, 22, 50, 100), is(16));
        assertThat(WorkDifficulty.bits(14, 22, 50, 400), is(18));
        assertThat(WorkDifficulty.bits(14, 22, 50, 1e9), is(22));
        assertThat("a threshold of 0 keeps the base", WorkDifficulty.bits(14, 22, 0, 1e9), is(14));
        assertThat("base 0 switches the work off", WorkDifficulty.bits(0, 22, 50, 1e9), is(0));
        assertThat("a cap below the base is the base", WorkDifficulty.bits(14, 10, 50, 1e9), is(14));
    }

    @Test
    void aSolvedNonceProvesItsBitsAndCheckingIsOneHash() {
        String nonce = WorkDifficulty.solve("c0ffee", 12);
        assertThat(WorkDifficulty.proves("c0ffee", nonce, 12), is(true));
        assertThat("bound to its challenge", WorkDifficulty.proves("c0ffef", nonce, 12), is(false));
        assertThat(WorkDifficulty.leadingZeroBits(new byte[] {0, 0x10, 1}), is(11));
        assertThat(WorkDifficulty.leadingZeroBits(new byte[] {(byte) 0x80}), is(0));
        assertThat(WorkDifficulty.proves("c0ffee", "anything", 0), is(true));
    }

    @Test
    void theRateIsAverageOverTheLastTenSeconds() {
        RecentRate rate = new RecentRate();
        for (int i = 0; i < 100; i++) {
            rate.count(5_000 + i);
        }
        assertThat(rate.perSecond(5_999), is(10.0));
        assertThat(rate.perSecond(14_999), is(10.0));
        assertThat("gone after ten seconds", rate.perSecond(15_000), is(0.0));
    }
}
