package seckill.ledger;

import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import seckill.reservation.api.ReservationEvents;

/**
 * How far the ordering workers are behind, as two gauges over every live bucket stream: events
 * handed to a worker and not yet acknowledged plus those never handed out ({@code seckill.stream.pending}),
 * and those never handed out alone ({@code seckill.stream.lag}). Registered at start-up, whether or
 * not this instance runs workers.
 */
@ApplicationScoped
class StreamBacklogGauges {
    private static final Metadata STREAM_PENDING = Metadata.builder().withName("seckill.stream.pending")
            .withDescription("Reservation events delivered to an ordering worker of the consumer group and not yet "
                    + "acknowledged (recorded but not yet settled), over every live bucket stream; counted in stream "
                    + "entries, and an entry of a coalesced call records all its reservations.").build();
    private static final Metadata STREAM_LAG = Metadata.builder().withName("seckill.stream.lag")
            .withDescription("Reservation events in the bucket streams never yet delivered to an ordering worker, over "
                    + "every live bucket stream; counted in stream entries, and an entry of a coalesced call records "
                    + "all its reservations.").build();

    private final ReservationEvents events;
    private final LiveStreams liveStreams;
    private final MetricRegistry metrics;
    private final AtomicLong pendingSeen = new AtomicLong();

    @Inject
    StreamBacklogGauges(ReservationEvents events, LiveStreams liveStreams, MetricRegistry metrics) {
        this.events = events;
        this.liveStreams = liveStreams;
        this.metrics = metrics;
    }

    void register(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        metrics.gauge(STREAM_PENDING, this::pendingTotal);
        metrics.gauge(STREAM_LAG, this::lagTotal);
    }

    private long pendingTotal() {
        try {
            long total = 0;
            for (String stream : liveStreams.list()) {
                total += events.pending(stream) + events.undelivered(stream);
            }
            pendingSeen.set(total);
            return total;
        } catch (RuntimeException e) {
            return pendingSeen.get();
        }
    }

    /** Entries recorded but never handed to a consumer: how far the workers are behind (XINFO's lag, no entry read). */
    private long lagTotal() {
        try {
            long total = 0;
            for (String stream : liveStreams.list()) {
                total += events.undelivered(stream);
            }
            return total;
        } catch (RuntimeException e) {
            return -1;
        }
    }
}
