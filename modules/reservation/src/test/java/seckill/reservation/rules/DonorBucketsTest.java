package seckill.reservation.rules;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

import org.junit.jupiter.api.Test;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.ReservationOutcome;
import seckill.reservation.api.ReservationUnavailable;
import seckill.reservation.api.ReserveStock;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The cross-bucket protocol against a fake of its three steps: order, answers, and failures between steps. */
class DonorBucketsTest {

    private static final Instant NOW = Instant.parse("2026-06-18T12:00:00Z");
    private static final ReserveStock FOUR_BUCKETS = new ReserveStock(5, 9, 4, 77, 1, "r-1");
    private static final ReservationId HOME = new ReservationId(5, 9, 1, 300);

    private final FakeSteps steps = new FakeSteps();
    private final DonorBuckets donors = new DonorBuckets(steps);

    @Test
    void donorsAreAskedOnceEachInAFixedOrderAndTheFirstThatHasUnitsWins() {
        steps.answers.put(2, List.of("SOLD_OUT", "", "0"));
        steps.answers.put(3, List.of("RESERVED", "5-9-3-8c", "6"));
        ReservationOutcome outcome = donors.reserve(FOUR_BUCKETS, HOME, new ReservationOutcome.SoldOut(), NOW);
        ReservationId fromThree = new ReservationId(5, 9, 3, 300);
        assertThat(outcome, is(new ReservationOutcome.Reserved(fromThree, 6, false)));
        assertThat(steps.calls, contains("claim 1 pending:300:r-1", "take 2", "take 3",
                "settle 1 pending:300:r-1 -> " + fromThree));
    }

    @Test
    void soldOutOnlyWhenEveryBucketSaidSoAndTheClaimIsReleased() {
        ReservationOutcome outcome = donors.reserve(FOUR_BUCKETS, HOME, new ReservationOutcome.SoldOut(), NOW);
        assertThat(outcome, is(new ReservationOutcome.SoldOut()));
        assertThat(steps.calls, contains("claim 1 pending:300:r-1", "take 2", "take 3", "take 0", "settle 1 pending:300:r-1 -> "));
    }

    @Test
    void aTakeWithdrawnByTheBuyersRetryIsNeitherSoldOutNorSettledHere() {
        steps.answers.put(2, List.of("WITHDRAWN", "", "0"));
        ReservationOutcome outcome = donors.reserve(FOUR_BUCKETS, HOME, new ReservationOutcome.SoldOut(), NOW);
        assertThat(outcome, is(new ReservationOutcome.InProgress()));
        // the retry replaced the claim already: this attempt leaves the home record alone
        assertThat(steps.calls, contains("claim 1 pending:300:r-1", "take 2"));
    }

    @Test
    void tooFewUnitsAnywhereAnswersTheLargestRemainder() {
        steps.answers.put(3, List.of("INSUFFICIENT", "2", "2"));
        ReservationOutcome outcome = donors.reserve(FOUR_BUCKETS, HOME, new ReservationOutcome.InsufficientStock(1), NOW);
        assertThat(outcome, is(new ReservationOutcome.InsufficientStock(2)));
    }

    @Test
    void aBuyerWhoAlreadyHoldsOrIsBeingServedIsNotServedTwice() {
        steps.held = "5-9-2-7a";
        assertThat(donors.reserve(FOUR_BUCKETS, HOME, new ReservationOutcome.SoldOut(), NOW),
                is(new ReservationOutcome.AlreadyReserved(ReservationId.parse("5-9-2-7a").orElseThrow())));
        steps.held = "pending:299";
        assertThat(donors.reserve(FOUR_BUCKETS, HOME, new ReservationOutcome.SoldOut(), NOW),
                is(new ReservationOutcome.InProgress()));
        assertThat(steps.calls, contains("claim 1 pending:300:r-1", "claim 1 pending:300:r-1"));
    }

    @Test
    void aFailureAfterTheUnitWasTakenStillGivesTheBuyerTheirUnit() {
        steps.answers.put(2, List.of("RESERVED", "5-9-2-8c", "3"));
        steps.settleFails = true;
        ReservationOutcome outcome = donors.reserve(FOUR_BUCKETS, HOME, new ReservationOutcome.SoldOut(), NOW);
        assertThat(outcome, is(new ReservationOutcome.Reserved(new ReservationId(5, 9, 2, 300), 3, false)));
    }

    @Test
    void aTakeThatFailedIsInDoubtUnlessItNeverLeftThisInstance() {
        steps.takeFailure = new IllegalStateException("connection reset");
        ReservationUnavailable doubt = assertThrows(ReservationUnavailable.class,
                () -> donors.reserve(FOUR_BUCKETS, HOME, new ReservationOutcome.SoldOut(), NOW));
        assertThat(doubt.inDoubt(), is(true));
        // in doubt the claim stays: reconciliation, not a guess, decides what happened
        assertThat(steps.calls, contains("claim 1 pending:300:r-1", "take 2"));

        steps.calls.clear();
        steps.takeFailure = new RuntimeException("pool", new NoSuchElementException("Pool exhausted"));
        ReservationUnavailable busy = assertThrows(ReservationUnavailable.class,
                () -> donors.reserve(FOUR_BUCKETS, HOME, new ReservationOutcome.SoldOut(), NOW));
        assertThat(busy.inDoubt(), is(false));
        // nothing was sent: the buyer gets their home record back
        assertThat(steps.calls, contains("claim 1 pending:300:r-1", "take 2", "settle 1 pending:300:r-1 -> "));
    }

    @Test
    void aRetryOfTheSameRequestFindsTheUnitItsLostTakeGotAndWithdrawsTheRest() {
        steps.withdrawals.put(3, "TAKEN");
        var found = new DonorBuckets(steps).resume(FOUR_BUCKETS, 1, "pending:300:r-1");
        assertThat(found.orElseThrow(), is(new ReservationOutcome.AlreadyReserved(new ReservationId(5, 9, 3, 300))));
        assertThat(steps.calls, contains("withdraw 2", "withdraw 3", "withdraw 0",
                "settle 1 pending:300:r-1 -> 5-9-3-8c"));
    }

    @Test
    void aRetryWhoseLostTakeNeverHappenedRemovesTheClaimForAFreshTry() {
        var found = new DonorBuckets(steps).resume(FOUR_BUCKETS, 1, "pending:300:r-1");
        assertThat(found.isPresent(), is(false));
        assertThat(steps.calls, contains("withdraw 2", "withdraw 3", "withdraw 0", "settle 1 pending:300:r-1 -> "));
    }

    @Test
    void onlyTheSameRequestsClaimIsItsOwn() {
        assertThat(DonorBuckets.pendingOf("pending:300:r-1", "r-1"), is(true));
        assertThat(DonorBuckets.pendingOf("pending:300:r-1", "r-2"), is(false));
        assertThat("an older record names no request", DonorBuckets.pendingOf("pending:300", "r-1"), is(false));
        assertThat(DonorBuckets.pendingSequence("pending:300").orElseThrow(), is(300L));
        assertThat(DonorBuckets.pendingSequence("pending:300:a:b").orElseThrow(), is(300L));
    }

    /** Records each step; takes answer sold out unless told otherwise. */
    private static final class FakeSteps implements DonorBuckets.Steps {

        final List<String> calls = new ArrayList<>();
        final Map<Integer, List<String>> answers = new HashMap<>();
        String held = "";
        RuntimeException takeFailure;
        boolean settleFails;
        final Map<Integer, String> withdrawals = new HashMap<>();

        @Override
        public String claim(int home, long userId, String pendingValue) {
            calls.add("claim " + home + " " + pendingValue);
            return held;
        }

        @Override
        public List<String> take(ReservationId id, long userId, int quantity, String requestId, Instant reservedAt) {
            calls.add("take " + id.bucket());
            if (takeFailure != null) {
                throw takeFailure;
            }
            return answers.getOrDefault(id.bucket(), List.of("SOLD_OUT", "", "0"));
        }

        @Override
        public void settle(int home, long userId, String expected, String replacement) {
            calls.add("settle " + home + " " + expected + " -> " + replacement);
            if (settleFails) {
                throw new IllegalStateException("connection reset");
            }
        }

        @Override
        public String withdraw(ReservationId id, long userId) {
            calls.add("withdraw " + id.bucket());
            return withdrawals.getOrDefault(id.bucket(), "WITHDRAWN");
        }
    }
}
