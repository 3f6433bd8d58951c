package seckill.settlement.rules;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.instanceOf;
import static org.hamcrest.Matchers.is;

/** Which applied refills Redis lost, every branch, without a server. */
class LostRefillsTest {

    private static final List<LostRefills.Applied> APPLIED = List.of(
            new LostRefills.Applied(1, "1-7-0-11", 1), new LostRefills.Applied(2, "1-7-0-12", 2),
            new LostRefills.Applied(3, "1-7-0-13", 1));

    @Test
    void asManyRefilledUnitsInRedisAsAppliedInTheLedgerIsNotEvenRead() {
        var refills = new LostRefills(0, 4, 4);
        assertThat(refills.suspected(), is(false));
        assertThat(refills.judge(APPLIED, Set.of()), instanceOf(LostRefills.None.class));
        // more in Redis: refills applied there and not marked yet
        assertThat(new LostRefills(0, 4, 6).suspected(), is(false));
    }

    @Test
    void refillsMissingFromRedisThatAccountForTheMissingUnitsAreLost() {
        var finding = new LostRefills(0, 4, 1).judge(APPLIED, Set.of("1-7-0-11"));
        var lost = (LostRefills.Lost) finding;
        assertThat(lost.refills().stream().map(LostRefills.Applied::refillId).toList(), is(List.of(2L, 3L)));
        assertThat(lost.detail(), is("bucket 0: 2 refill(s) (3 unit(s)) marked applied in the ledger are missing"
                + " from Redis; put back in the outbox"));
    }

    @Test
    void missingIdsThatDoNotAccountForTheMissingUnitsAreNotAppliedOnAGuess() {
        // 3 units short, yet every id is there: the counter alone fell back
        assertThat(new LostRefills(0, 4, 1).judge(APPLIED, Set.of("1-7-0-11", "1-7-0-12", "1-7-0-13")),
                instanceOf(LostRefills.Unexplained.class));
        // 1 unit short, but 3 ids missing (a set Redis lost as a whole, or a refill still being marked)
        var finding = new LostRefills(0, 4, 3).judge(APPLIED, Set.of("1-7-0-11"));
        assertThat(((LostRefills.Unexplained) finding).detail(), is("bucket 0: the ledger's applied refills 4 > Redis"
                + " refilled 3, and 2 refill(s) (3 unit(s)) are missing from Redis's refilled ids"));
    }
}
