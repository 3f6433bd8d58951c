package seckill.ledger;

import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Whether this instance's workers currently find the ledger database away, and since when; shared
 * by the workers so readiness can say why ordering is backing off (the driver's error text stays in
 * the log). Plain Java: the workers tell it what they saw.
 */
final class LedgerOutage {

    private record Episode(Instant since) {
    }

    private final AtomicReference<Episode> current = new AtomicReference<>();

    /** Records a failure; true when it starts a new outage (the one worth a log line). */
    boolean began(Instant now) {
        Episode started = new Episode(now);
        return current.compareAndSet(null, started);
    }

    void ended() {
        current.set(null);
    }

    Optional<String> current() {
        Episode episode = current.get();
        return episode == null ? Optional.empty()
                : Optional.of("ledger database unavailable since " + episode.since() + "; ordering workers back off "
                + "and purchases queue in the stream");
    }

    boolean ongoing() {
        return current.get() != null;
    }
}
