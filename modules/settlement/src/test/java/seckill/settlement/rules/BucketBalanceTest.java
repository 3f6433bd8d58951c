package seckill.settlement.rules;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/** The balance of a bucket, every branch, without a server. */
class BucketBalanceTest {

    @Test
    void eventsInFlightAreCountedOnceAndBalance() {
        // 40 taken: 37 settled, 3 still in the stream
        var bucket = new BucketBalance(0, 100, 60, 0, 3, 0, 37);
        assertThat(bucket.reserved(), is(40L));
        assertThat(bucket.accounted(), is(40L));
        assertThat(BucketBalance.firstMismatch(List.of(bucket)), is(Optional.empty()));
    }

    @Test
    void refilledUnitsAreBackOnTheShelfAndOutOfTheAccount() {
        // 10 taken, 2 of them failed and refilled: 8 left taken; the ledger holds 8 orders and 2 failures
        var bucket = new BucketBalance(0, 50, 42, 2, 0, 0, 10);
        assertThat(BucketBalance.firstMismatch(List.of(bucket)), is(Optional.empty()));
    }

    @Test
    void aUnitTakenBehindTheLedgersBackIsAMismatchWithoutNamingTheOnlyBucket() {
        var bucket = new BucketBalance(0, 100, 59, 0, 3, 0, 37);
        assertThat(BucketBalance.firstMismatch(List.of(bucket)),
                is(Optional.of("Redis reserved 41 != settled 37 + pending 3 - released 0")));
    }

    @Test
    void withSeveralBucketsTheFirstOneOffIsNamed() {
        var clean = new BucketBalance(0, 10, 10, 0, 0, 0, 0);
        var off = new BucketBalance(1, 10, 9, 0, 0, 0, 0);
        var offToo = new BucketBalance(2, 10, 11, 0, 0, 0, 0);
        assertThat(BucketBalance.firstMismatch(List.of(clean, off, offToo)),
                is(Optional.of("bucket 1: Redis reserved 1 != settled 0 + pending 0 - released 0")));
    }

    @Test
    void anEventGoneFromTheStreamWhilePendingIsAnAlarmEvenWhenTheSumsAgree() {
        var bucket = new BucketBalance(0, 10, 10, 0, 0, 1, 0);
        assertThat(BucketBalance.firstMismatch(List.of(bucket)),
                is(Optional.of("1 event(s) pending in the consumer group are gone from the stream")));
    }
}
