package seckill.ledger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.helidon.dbclient.DbClient;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;
import seckill.ledger.api.catalogue.Activity;
import seckill.ledger.api.catalogue.ActivityCatalog;
import seckill.ledger.api.LedgerUnavailable;
import seckill.ledger.hooks.CrashPoint;
import seckill.ledger.sql.OrderWriter;
import seckill.ledger.rules.RefusalCount;
import seckill.ledger.rules.SettlementOutcome;
import seckill.redis.World;
import seckill.reservation.api.EventPosition;
import seckill.reservation.api.ReservationEvent;
import seckill.reservation.api.ReservationEvents;

/**
 * Turns a batch of reservation events into orders: one transaction for the batch, and when the
 * ledger refuses it, one transaction per event so a single bad event cannot hold back the rest.
 * An event's stream entry is acknowledged only after its outcome (order, or recorded failure) is
 * committed, and an entry recording several reservations (a coalesced call's, issue #35) only once
 * every one of them is: the batch holds whole entries ({@link OrderingPass}), and one that stays
 * pending (unreadable, refused by the ledger for now) keeps its entry pending, so the others are
 * delivered again with it and found settled by the ledger's unique keys. A
 * database outage ({@link LedgerUnavailable}) is thrown to the worker, which backs off: it is never
 * held against an event, so a long outage cannot fail a buyer who won.
 */
@ApplicationScoped
class PlacingOrders {
    private static final Metadata ORDERS_CREATED = Metadata.builder().withName("seckill.orders.created")
            .withDescription("Orders written to the ledger by this instance's ordering workers (one per reservation "
                    + "event settled as an order).").build();
    private static final Metadata BATCHES = Metadata.builder().withName("seckill.ordering.batches")
            .withDescription("Ordering batches by outcome: refused (the ledger refused the batch as a whole, so its "
                    + "events were settled one at a time).").build();
    private static final Metadata FAILED = Metadata.builder().withName("seckill.ordering.failed")
            .withDescription("Reservation events the ledger recorded as failed, never to become an order (unknown "
                    + "activity, not enough stock in the ledger, a reused requestId); the buyer sees FAILED.").build();
    private static final Metadata DEAD_LETTERS = Metadata.builder().withName("seckill.ordering.dead.letters")
            .withDescription("Reservation events dead-lettered after seckill.ordering.max-deliveries refusals by the "
                    + "ledger: failure recorded, units refilled, event copied to the bucket's dead-letter "
                    + "stream.").build();
    private static final Metadata TRANSACTION = Metadata.builder().withName("seckill.ordering.transaction")
            .withDescription("Time of one ordering batch's ledger transaction on this instance, from taking a "
                    + "connection to the commit (or the refusal): the database wait the ordering workers see; "
                    + "sum / count over a minute is its mean.").build();

    private static final Logger LOG = Logger.getLogger(PlacingOrders.class.getName());

    private final DbClient db;
    private final ReservationEvents events;
    private final ActivityCatalog catalog;
    private final Clock clock;
    private final MetricRegistry metrics;
    private final CrashInjection crashes;
    private final BindingTheLedger binding;
    /** The world whose ledger this graph writes: every series it moves carries it (docs/rehearsal.md). */
    private final World world;

    /** Refusals by the ledger itself (never database outages) before an event is dead-lettered. */
    private final RefusalCount refusals;

    @Inject
    PlacingOrders(DbClient db,
                  ReservationEvents events,
                  ActivityCatalog catalog,
                  Clock clock,
                  MetricRegistry metrics,
                  CrashInjection crashes,
                  BindingTheLedger binding,
                  OrderingSettings settings) {
        this(World.REAL, db, events, catalog, clock, metrics, crashes, binding, settings);
    }

    /** The graph of {@code world}'s ledger: {@link RehearsalOrdering} builds the rehearsals'. */
    PlacingOrders(World world,
                  DbClient db,
                  ReservationEvents events,
                  ActivityCatalog catalog,
                  Clock clock,
                  MetricRegistry metrics,
                  CrashInjection crashes,
                  BindingTheLedger binding,
                  OrderingSettings settings) {
        this.world = world;
        this.binding = binding;
        this.db = db;
        this.events = events;
        this.catalog = catalog;
        this.clock = clock;
        this.metrics = metrics;
        this.crashes = crashes;
        this.refusals = new RefusalCount(settings.maxDeliveries());
    }

    private OrderWriter writer;
    private Counter deadLetters;
    private Counter ordersCreated;
    private Counter batchesRefused;
    private Counter failures;
    private Timer transactions;

    @PostConstruct
    void init() {
        writer = new OrderWriter(db);
        Tag inWorld = new Tag(World.LABEL, world.label());
        ordersCreated = metrics.counter(ORDERS_CREATED, inWorld);
        batchesRefused = metrics.counter(BATCHES, new Tag("outcome", "refused"), inWorld);
        failures = metrics.counter(FAILED, inWorld);
        deadLetters = metrics.counter(DEAD_LETTERS, inWorld);
        transactions = metrics.timer(TRANSACTION, inWorld);
    }

    /**
     * Settles the events and acknowledges those whose outcome is committed.
     *
     * @throws LedgerUnavailable when the database cannot answer; the unsettled events stay pending,
     *                           and nothing counts against them
     */
    void settle(List<ReservationEvent> batch) {
        Entries entries = new Entries(batch);
        List<ReservationEvent> readable = new ArrayList<>(batch.size());
        List<ReservationEvent> orphans = new ArrayList<>();
        Instant now = clock.instant();
        for (ReservationEvent event : batch) {
            if (event.id() == null) {
                // no reservation id means no ledger row can ever represent it; it stays pending for an operator
                LOG.warning(() -> "unreadable reservation event left pending at " + event.position());
            } else if (knownActivity(event.id().activityId()).isEmpty()) {
                // the ledger itself answered (never a remembered miss) that it has no such activity, and
                // the namespace is this ledger's: this event can never become an order. Its unit goes
                // back like any other permanent failure's (the refill finds no shelf if the keys are gone)
                if (!binding.stillOurs()) {
                    throw new LedgerUnavailable(new IllegalStateException(
                            "the Redis namespace belongs to another ledger; event " + event.id() + " left pending"));
                }
                writer.recordFailure(event, "UNKNOWN_ACTIVITY: the ledger has no activity " + event.id().activityId(), now,
                        true);
                failures.inc();
                orphans.add(event);
            } else {
                readable.add(event);
            }
        }
        acknowledge(entries.settled(orphans));
        if (readable.isEmpty()) {
            return;
        }
        crashes.reached(CrashPoint.AFTER_READ);
        long began = System.nanoTime();
        try {
            int created;
            try {
                created = writer.writeBatch(readable, this::paymentWindowOf, now);
            } finally {
                transactions.update(Duration.ofNanos(System.nanoTime() - began));
            }
            ordersCreated.inc(created);
            crashes.reached(CrashPoint.AFTER_COMMIT);
            acknowledge(entries.settled(readable));
        } catch (OrderWriter.BatchRefused refused) {
            batchesRefused.inc();
            LOG.log(Level.FINE, "batch refused, settling one by one", refused);
            settleOneByOne(readable, entries, now);
        }
    }

    private void acknowledge(List<EventPosition> entries) {
        if (!entries.isEmpty()) {
            events.acknowledge(entries);
        }
    }

    private void settleOneByOne(List<ReservationEvent> batch, Entries entries, Instant now) {
        List<ReservationEvent> settled = new ArrayList<>();
        try {
            for (ReservationEvent event : batch) {
                SettlementOutcome outcome = writer.writeOne(event, paymentWindowOf(event.id().activityId()), now);
                switch (outcome) {
                    case SettlementOutcome.Ordered ordered -> {
                        ordersCreated.inc();
                        settled.add(event);
                    }
                    case SettlementOutcome.AlreadySettled already -> settled.add(event);
                    case SettlementOutcome.Failed failed -> {
                        failures.inc();
                        settled.add(event);
                        LOG.warning(() -> "reservation " + event.id() + " can never be ordered: " + failed.reason());
                    }
                    case SettlementOutcome.Rejected rejected -> {
                        if (rejectedOnce(event, rejected.reason(), now)) {
                            settled.add(event);
                        }
                    }
                }
            }
        } finally {
            // what was committed before an outage cut the loop short is acknowledged all the same: the
            // entries whose every event is settled
            acknowledge(entries.settled(settled));
        }
    }

    /**
     * The entries of one batch and how many of each one's events are not settled yet: an entry may be
     * acknowledged once none is. The batch holds whole entries, and the same entry twice after a reclaim
     * counts each copy.
     */
    private static final class Entries {
        private final Map<EventPosition, Integer> open = new HashMap<>();

        Entries(List<ReservationEvent> batch) {
            batch.forEach(event -> open.merge(event.position(), 1, Integer::sum));
        }

        /** Counts these events as settled; returns the entries now wholly settled (each once). */
        List<EventPosition> settled(List<ReservationEvent> events) {
            List<EventPosition> done = new ArrayList<>();
            for (ReservationEvent event : events) {
                Integer left = open.computeIfPresent(event.position(), (position, n) -> n - 1);
                if (left != null && left == 0) {
                    open.remove(event.position());
                    done.add(event.position());
                }
            }
            return done;
        }
    }

    /**
     * Counts one refusal by the ledger; the {@code max-deliveries}-th dead-letters the event: its
     * failure and refill are committed first (unless an order turned up meanwhile), then it is
     * copied to the dead-letter stream.
     *
     * @return whether the event is settled now (and may be acknowledged)
     */
    private boolean rejectedOnce(ReservationEvent event, String reason, Instant now) {
        int attempts = writer.countRejection(event, reason, now);
        if (refusals.after(attempts) == RefusalCount.Next.RETRY_LATER) {
            LOG.fine(() -> "reservation " + event.id() + " refused by the ledger (" + attempts + "/" + refusals.maxRefusals()
                    + "): " + reason + "; left pending for a retry");
            return false;
        }
        String deadReason = "DEAD_LETTER: refused by the ledger " + attempts + " times; last: " + reason;
        if (writer.deadLetter(event, deadReason, now)) {
            events.deadLetter(event, deadReason);
            deadLetters.inc();
            LOG.warning(() -> "reservation " + event.id() + " dead-lettered: " + deadReason
                    + "; its stock goes back through the outbox");
        }
        return true;
    }

    /** Whether the ledger database answers at all (a worker backing off from an outage asks). */
    boolean ledgerAnswers() {
        return writer.answers();
    }

    private Optional<Activity> knownActivity(long activityId) {
        try {
            // a known activity comes from memory; an unknown one is asked of the ledger, never a remembered miss
            return catalog.findInLedger(activityId);
        } catch (RuntimeException e) {
            throw LedgerUnavailable.isOutage(e) ? new LedgerUnavailable(e) : e;
        }
    }

    private Duration paymentWindowOf(long activityId) {
        return catalog.find(activityId).map(Activity::paymentWindow)
                .orElseThrow(() -> new IllegalStateException("reservation for unknown activity " + activityId));
    }
}
