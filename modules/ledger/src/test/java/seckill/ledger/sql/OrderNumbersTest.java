package seckill.ledger.sql;

import java.time.Instant;

import org.junit.jupiter.api.Test;
import seckill.reservation.api.ReservationId;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

class OrderNumbersTest {

    @Test
    void areTwentyFourDigitsOfDayAndSequence() {
        String number = OrderNumbers.of(new ReservationId(1, 2, 0, 42), Instant.parse("2026-11-29T23:59:59Z"));
        assertThat(number, is("26333" + "0000000000000000042"));
        assertThat(number.length(), is(24));
    }

    @Test
    void dependOnTheReservationAlone() {
        Instant at = Instant.parse("2026-01-01T00:00:00Z");
        ReservationId id = new ReservationId(1, 2, 0, Long.MAX_VALUE);
        assertThat(OrderNumbers.of(id, at), is(OrderNumbers.of(id, at)));
        assertThat(OrderNumbers.of(id, at).length(), is(24));
        assertThat(OrderNumbers.of(new ReservationId(1, 2, 0, 1), at), not(OrderNumbers.of(new ReservationId(1, 2, 0, 2), at)));
    }

    @Test
    void aFallbackNumberIsTwentyFourDigitsThatNoSequenceGives() {
        Instant at = Instant.parse("2026-11-29T23:59:59Z");
        String number = OrderNumbers.fallback(at, 42);
        assertThat(number, is("26333" + "99" + "00000000000000042"));
        assertThat(number.length(), is(24));
        // the largest sequence's digits start with 92: a derived number never has 99 after the day
        assertThat(OrderNumbers.of(new ReservationId(1, 2, 0, Long.MAX_VALUE), at).substring(5, 7), is("92"));
        assertThat(OrderNumbers.fallback(at, 1), not(OrderNumbers.fallback(at, 2)));
    }

    @Test
    void aRehearsalsNumberStartsWithRAndTellsItsWorld() {
        Instant at = Instant.parse("2026-11-29T23:59:59Z");
        long rehearsal = seckill.redis.World.REHEARSAL_IDS_FROM + 7;
        String number = OrderNumbers.of(new ReservationId(rehearsal, 2, 0, 42), at);
        assertThat(number, is("R6333" + "0000000000000000042"));
        assertThat(OrderNumbers.worldOf(number), is(seckill.redis.World.REHEARSAL));
        assertThat(OrderNumbers.worldOf(OrderNumbers.of(new ReservationId(1, 2, 0, 42), at)), is(seckill.redis.World.REAL));
        String fallback = OrderNumbers.fallback(seckill.redis.World.REHEARSAL, at, 42);
        assertThat(fallback, is("R6333" + "99" + "00000000000000042"));
        assertThat(fallback.length(), is(24));
        assertThat(OrderNumbers.worldOf(fallback), is(seckill.redis.World.REHEARSAL));
        assertThat(OrderNumbers.fallback(seckill.redis.World.REAL, at, 42), is(OrderNumbers.fallback(at, 42)));
    }
}
