package seckill.app.infra;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * The sale's time: the ledger database's clock, read every {@code seckill.clock.sync-seconds} and
 * carried forward in between by this process' monotonic clock, never by the host's wall clock.
 * Every instance then agrees on order deadlines, payment windows, a sale's start and end and buyers'
 * windows to within a database round trip, whatever its host clock says: the chaos drill moved one
 * instance's clock 126 s forward (it refused payments that came on time and held its orders' units
 * past their window) and 135 s back (it answered an open sale {@code NOT_STARTED}). A reading is
 * taken at the middle of its round trip; a change under {@link #STEADY_MILLIS} is not applied, so the
 * time does not wobble by a few milliseconds at each reading. Until the first reading succeeds (the
 * database down at start) the host clock stands in, and the service says so.
 */
final class LedgerClock extends Clock {

    private static final Logger LOG = Logger.getLogger(LedgerClock.class.getName());
    /** Changes smaller than this are drift of the monotonic clock or of the round trip, not a new time. */
    static final long STEADY_MILLIS = 20;
    /** Host and ledger further apart than this are worth an operator's look. */
    private static final long WARN_MILLIS = 1_000;

    private final Supplier<Instant> ledgerNow;
    private final LongSupplier nanos;
    private final Clock host;
    private volatile Anchor anchor;

    /** A ledger reading and the monotonic time it was taken at. */
    private record Anchor(Instant at, long nanos) {
    }

    LedgerClock(Supplier<Instant> ledgerNow, LongSupplier nanos, Clock host) {
        this.ledgerNow = ledgerNow;
        this.nanos = nanos;
        this.host = host;
    }

    /** Reads the ledger's time now and every {@code period}, on a daemon thread. */
    static LedgerClock started(Supplier<Instant> ledgerNow, Duration period) {
        LedgerClock clock = new LedgerClock(ledgerNow, System::nanoTime, Clock.systemUTC());
        clock.sync();
        ScheduledExecutorService reader = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "seckill-ledger-clock");
            thread.setDaemon(true);
            return thread;
        });
        reader.scheduleWithFixedDelay(clock::sync, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
        return clock;
    }

    /** One reading of the ledger's clock; returns whether it succeeded. */
    boolean sync() {
        Instant read;
        long before = nanos.getAsLong();
        try {
            read = ledgerNow.get();
        } catch (RuntimeException e) {
            if (anchor == null) {
                LOG.warning(() -> "the ledger's clock could not be read (" + e.getMessage()
                        + "); this instance keeps the host clock until it can");
            }
            return false;
        }
        long after = nanos.getAsLong();
        Anchor next = new Anchor(read, before + (after - before) / 2);
        Anchor current = anchor;
        if (current != null) {
            long change = Math.abs(Duration.between(at(current, next.nanos()), read).toMillis());
            if (change < STEADY_MILLIS) {
                return true;
            }
        }
        long hostAhead = Duration.between(read, host.instant()).toMillis();
        if (Math.abs(hostAhead) > WARN_MILLIS) {
            LOG.warning(() -> "this host's clock is " + hostAhead + " ms off the ledger database's; the service keeps "
                    + "the ledger's time (fix the host's time sync)");
        }
        anchor = next;
        return true;
    }

    @Override
    public Instant instant() {
        Anchor current = anchor;
        return current == null ? host.instant() : at(current, nanos.getAsLong());
    }

    @Override
    public long millis() {
        return instant().toEpochMilli();
    }

    private static Instant at(Anchor anchor, long now) {
        return anchor.at().plusNanos(now - anchor.nanos());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return ZoneOffset.UTC.equals(zone) ? this : new Zoned(this, zone);
    }

    /** Seconds since the epoch with microseconds, as MariaDB's {@code UNIX_TIMESTAMP(NOW(6))} gives them. */
    static Instant epoch(Object seconds) {
        BigDecimal exact = new BigDecimal(String.valueOf(seconds));
        return Instant.ofEpochSecond(0, exact.movePointRight(9).longValueExact());
    }

    /** The same time seen in another zone (Clock's contract); nothing here uses one. */
    private static final class Zoned extends Clock {
        private final Clock base;
        private final ZoneId zone;

        Zoned(Clock base, ZoneId zone) {
            this.base = base;
            this.zone = zone;
        }

        @Override
        public ZoneId getZone() {
            return zone;
        }

        @Override
        public Clock withZone(ZoneId other) {
            return new Zoned(base, other);
        }

        @Override
        public Instant instant() {
            return base.instant();
        }
    }
}
