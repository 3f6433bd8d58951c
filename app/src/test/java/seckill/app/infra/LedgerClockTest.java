package seckill.app.infra;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/** The ledger's time carried by the monotonic clock: pure logic, a fake ledger and a fake monotonic clock. */
class LedgerClockTest {

    private static final Instant LEDGER = Instant.parse("2026-12-02T10:00:00Z");
    private static final Clock HOST_FAST = Clock.fixed(LEDGER.plusSeconds(126), ZoneOffset.UTC);

    private final AtomicLong nanos = new AtomicLong(5_000_000_000L);
    private final AtomicReference<Instant> ledger = new AtomicReference<>(LEDGER);

    private LedgerClock clock() {
        return new LedgerClock(() -> {
            Instant now = ledger.get();
            if (now == null) {
                throw new IllegalStateException("database down");
            }
            nanos.addAndGet(2_000_000);  // a 2 ms round trip
            return now;
        }, nanos::get, HOST_FAST);
    }

    @Test
    void keepsTheLedgersTimeAdvancedByTheMonotonicClockNotTheHosts() {
        LedgerClock clock = clock();
        assertThat(clock.sync(), is(true));
        // the reading counts from the middle of its round trip
        assertThat(clock.instant(), is(LEDGER.plusMillis(1)));
        nanos.addAndGet(3_000_000_000L);
        assertThat(clock.instant(), is(LEDGER.plusMillis(3_001)));
        assertThat(clock.millis(), is(LEDGER.plusMillis(3_001).toEpochMilli()));
    }

    @Test
    void aReadingWithinTheSteadyBandChangesNothingALargerOneIsTaken() {
        LedgerClock clock = clock();
        clock.sync();
        nanos.addAndGet(10_000_000_000L);
        ledger.set(LEDGER.plusMillis(10_005));  // 10 s later by the ledger, 4 ms off the carried time
        clock.sync();
        Instant carried = clock.instant();
        assertThat(carried, is(LEDGER.plusMillis(10_003)));
        ledger.set(LEDGER.plusMillis(10_500));  // the ledger's clock stepped: 0.5 s
        clock.sync();
        assertThat(clock.instant(), is(LEDGER.plusMillis(10_501)));
    }

    @Test
    void theHostClockStandsInUntilTheLedgerAnswers() {
        ledger.set(null);
        LedgerClock clock = clock();
        assertThat(clock.sync(), is(false));
        assertThat(clock.instant(), is(HOST_FAST.instant()));
        ledger.set(LEDGER);
        assertThat(clock.sync(), is(true));
        assertThat(clock.instant(), is(LEDGER.plusMillis(1)));
        // a later failed reading keeps the last good one
        ledger.set(null);
        assertThat(clock.sync(), is(false));
        assertThat(clock.instant(), is(LEDGER.plusMillis(1)));
    }

    @Test
    void readsMariaDbsEpochSecondsWithMicroseconds() {
        assertThat(LedgerClock.epoch("1764669600.123456"), is(Instant.parse("2025-12-02T10:00:00.123456Z")));
        assertThat(LedgerClock.epoch(new java.math.BigDecimal("1764669600")), is(Instant.parse("2025-12-02T10:00:00Z")));
    }
}
