package seckill.ordering;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.helidon.dbclient.DbClient;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import seckill.ordering.api.Activity;
import seckill.ordering.api.ActivityCatalog;
import seckill.ordering.api.OrderingSwitch;
import seckill.ordering.sql.OrderWriter;
import seckill.ordering.sql.SettlementOutcome;
import seckill.reservation.api.EventPosition;
import seckill.reservation.api.ReservationEvent;
import seckill.reservation.api.ReservationEvents;

/**
 * Turns a batch of reservation events into orders: one transaction for the batch, and when the
 * ledger refuses it, one transaction per event so a single bad event cannot hold back the rest.
 * An event is acknowledged only after its outcome (order, or recorded failure) is committed.
 */
@ApplicationScoped
class PlacingOrders {

    private static final Logger LOG = Logger.getLogger(PlacingOrders.class.getName());

    @Inject
    DbClient db;

    @Inject
    ReservationEvents events;

    @Inject
    ActivityCatalog catalog;

    @Inject
    Clock clock;

    @Inject
    MetricRegistry metrics;

    @Inject
    CrashInjection crashes;

    @Inject
    @ConfigProperty(name = "seckill.ordering.max-deliveries", defaultValue = "5")
    int maxDeliveries;

    private OrderWriter writer;
    private Counter deadLetters;
    private Counter ordersCreated;
    private Counter batchesRefused;
    private Counter failures;

    @PostConstruct
    void init() {
        writer = new OrderWriter(db);
        ordersCreated = metrics.counter("seckill.orders.created");
        batchesRefused = metrics.counter("seckill.ordering.batches", new Tag("outcome", "refused"));
        failures = metrics.counter("seckill.ordering.failed");
        deadLetters = metrics.counter("seckill.ordering.dead.letters");
    }

    /** Settles the events and acknowledges those whose outcome is committed. */
    void settle(List<ReservationEvent> batch) {
        List<ReservationEvent> readable = new ArrayList<>(batch.size());
        List<EventPosition> orphans = new ArrayList<>();
        Instant now = clock.instant();
        for (ReservationEvent event : batch) {
            if (event.id() == null) {
                // no reservation id means no ledger row can ever represent it; it stays pending for an operator
                LOG.warning(() -> "unreadable reservation event left pending at " + event.position());
            } else if (event.deliveries() > maxDeliveries) {
                deadLetter(event, now);
                orphans.add(event.position());
            } else if (catalog.find(event.id().activityId()).isEmpty()) {
                // the ledger answered and has no such activity: this event can never become an order
                writer.recordFailure(event, "UNKNOWN_ACTIVITY: the ledger has no activity " + event.id().activityId(), now,
                        false);
                failures.inc();
                orphans.add(event.position());
            } else {
                readable.add(event);
            }
        }
        if (!orphans.isEmpty()) {
            events.acknowledge(orphans);
        }
        if (readable.isEmpty()) {
            return;
        }
        crashes.reached(OrderingSwitch.CrashPoint.AFTER_READ);
        try {
            int created = writer.writeBatch(readable, this::paymentWindowOf, now);
            ordersCreated.inc(created);
            crashes.reached(OrderingSwitch.CrashPoint.AFTER_COMMIT);
            events.acknowledge(readable.stream().map(ReservationEvent::position).toList());
        } catch (OrderWriter.BatchRefused refused) {
            batchesRefused.inc();
            LOG.log(Level.FINE, "batch refused, settling one by one", refused);
            settleOneByOne(readable, now);
        }
    }

    /**
     * An event that failed {@code max-deliveries} times: its failure and the refill of its units are
     * committed first, then it is copied to the dead-letter stream; the caller acknowledges it after.
     */
    private void deadLetter(ReservationEvent event, Instant now) {
        String reason = "DEAD_LETTER: not settled after " + (event.deliveries() - 1) + " deliveries";
        writer.recordFailure(event, reason, now, true);
        events.deadLetter(event, reason);
        deadLetters.inc();
        LOG.warning(() -> "reservation " + event.id() + " dead-lettered after " + (event.deliveries() - 1)
                + " deliveries; its stock goes back through the outbox");
    }

    private void settleOneByOne(List<ReservationEvent> batch, Instant now) {
        List<EventPosition> settled = new ArrayList<>();
        for (ReservationEvent event : batch) {
            SettlementOutcome outcome = writer.writeOne(event, paymentWindowOf(event.id().activityId()), now);
            switch (outcome) {
                case ORDERED -> {
                    ordersCreated.inc();
                    settled.add(event.position());
                }
                case ALREADY_ORDERED -> settled.add(event.position());
                case FAILED -> {
                    failures.inc();
                    settled.add(event.position());
                    LOG.warning(() -> "reservation " + event.id() + " can never be ordered; failure recorded");
                }
                case RETRY -> LOG.fine(() -> "reservation " + event.id() + " left pending for a retry");
            }
        }
        if (!settled.isEmpty()) {
            events.acknowledge(settled);
        }
    }

    private Duration paymentWindowOf(long activityId) {
        return catalog.find(activityId).map(Activity::paymentWindow)
                .orElseThrow(() -> new IllegalStateException("reservation for unknown activity " + activityId));
    }
}
