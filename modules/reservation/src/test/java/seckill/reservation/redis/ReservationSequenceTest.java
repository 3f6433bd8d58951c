package seckill.reservation.redis;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

class ReservationSequenceTest {

    private final Clock frozen = Clock.fixed(Instant.parse("2026-11-29T10:00:00Z"), ZoneOffset.UTC);

    @Test
    void staysUniqueAndIncreasingWhenTheClockStandsStill() {
        ReservationSequence sequence = new ReservationSequence(frozen, 7);
        Set<Long> seen = new HashSet<>();
        long previous = -1;
        // more than one millisecond's worth of counter, so the borrowing path runs too
        for (int i = 0; i < 10_000; i++) {
            long next = sequence.next();
            assertThat(next, greaterThan(previous));
            assertThat(seen.add(next), is(true));
            previous = next;
        }
    }

    @Test
    void differentNodesNeverCollide() {
        ReservationSequence a = new ReservationSequence(frozen, 1);
        ReservationSequence b = new ReservationSequence(frozen, 2);
        for (int i = 0; i < 1_000; i++) {
            assertThat(a.next(), not(b.next()));
        }
    }

    @Test
    void refusesNodeIdsOutsideTenBits() {
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new ReservationSequence(frozen, ReservationSequence.MAX_NODES));
    }
}
