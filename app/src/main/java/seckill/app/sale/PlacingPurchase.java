package seckill.app.sale;

import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import seckill.admission.api.Admission;
import seckill.admission.api.AdmissionDecision;
import seckill.admission.api.HaltReason;
import seckill.admission.api.PurchaseAttempt;
import seckill.admission.api.SaleWindow;
import seckill.ledger.api.catalogue.Activity;
import seckill.ledger.api.catalogue.ActivityCatalog;
import seckill.ledger.api.catalogue.SkuLine;
import seckill.redis.World;
import seckill.reservation.api.BuyerWindow;
import seckill.reservation.api.ReplicasMissing;
import seckill.reservation.api.ReservationOutcome;
import seckill.reservation.api.ReservationUnavailable;
import seckill.reservation.api.ReserveStock;
import seckill.reservation.api.Reserving;
import seckill.queue.api.PassCheck;
import seckill.queue.api.QueueSwitch;

/**
 * A buyer's click, start to end: the activity and SKU from the catalogue (memory), admission's
 * checks (memory, and the global rate from this instance's lease), then the one atomic Redis script
 * that judges the buyer's rate-limit window, dedupes, pre-deducts and records the reservation. The only place that decides what Redis doubt means for sales: when either script's
 * outcome is unknown, sales halt on this instance (stop issuing; settlement reconciles and resumes),
 * never a guess either way.
 */
@HotPathSingleton
public class PlacingPurchase {
    private static final Metadata RESERVATIONS = Metadata.builder().withName("seckill.reservations")
            .withDescription("Reservations this instance made (the reservation script took units and recorded the "
                    + "event): each becomes an order or a recorded failure.").build();

    private static final Logger LOG = Logger.getLogger(PlacingPurchase.class.getName());

    private final ActivityCatalog catalog;
    private final Admission admission;
    private final Reserving reserving;
    private final PurchasesInFlight inFlight;
    /** A rehearsal's reservations carry {@code world="rehearsal"}, the real ones {@code world="real"} (docs/rehearsal.md). */
    private final Counter reservationsMade;
    private final MetricRegistry metrics;
    private volatile Counter rehearsalReservationsMade;
    private final QueueSwitch queue;
    private final PassCheck passes;

    @Inject
    PlacingPurchase(ActivityCatalog catalog, Admission admission, Reserving reserving,
                    PurchasesInFlight inFlight, MetricRegistry metrics, QueueSwitch queue, PassCheck passes) {
        this.catalog = catalog;
        this.admission = admission;
        this.reserving = reserving;
        this.inFlight = inFlight;
        this.metrics = metrics;
        this.reservationsMade = metrics.counter(RESERVATIONS, new Tag(World.LABEL, World.REAL.label()));
        this.queue = queue;
        this.passes = passes;
    }

    /** Without the waiting room (its switch off): tests of the purchase path itself. */
    PlacingPurchase(ActivityCatalog catalog, Admission admission, Reserving reserving,
                    PurchasesInFlight inFlight, MetricRegistry metrics) {
        this(catalog, admission, reserving, inFlight, metrics, QUEUE_OFF, null);
    }

    private static final QueueSwitch QUEUE_OFF = new QueueSwitch() {
        @Override
        public boolean on() {
            return false;
        }

        @Override
        public long rate() {
            return 0;
        }
    };

    public PurchaseOutcome place(Purchase purchase) {
        Activity activity = catalog.find(purchase.activityId()).orElse(null);
        if (activity == null) {
            return new PurchaseOutcome.UnknownActivity(purchase.activityId());
        }
        SkuLine sku = activity.sku(purchase.skuId()).orElse(null);
        if (sku == null) {
            return new PurchaseOutcome.UnknownSku(purchase.activityId(), purchase.skuId());
        }
        if (purchase.quantity() > sku.perUserLimit()) {
            return new PurchaseOutcome.OverBuyerLimit(sku.perUserLimit());
        }
        boolean queued = queue.on();
        if (queued) {
            // the waiting room (issue #33): a pass checked in memory, before admission spends the token
            java.util.Optional<String> refused = passes.refusal(purchase.activityId(), purchase.userId(),
                    purchase.queuePass());
            if (refused.isPresent()) {
                String reason = refused.get();
                return new PurchaseOutcome.PassRequired(purchase.activityId(),
                        reason.equals("MISSING") || reason.equals("EXPIRED") ? reason : "INVALID");
            }
            // one turn, one purchase: the pass is bound to this purchase (its requestId and SKU) before it reserves.
            // The SKU too: the reservation dedupes a requestId per SKU, so the same requestId sent for another SKU
            // is another purchase (until 2026-12-03 it passed as the same one and bought a second unit;
            // WaitingRoomTest.aUsedPassBuysNoOtherSkuUnderItsOwnRequestId). '@' is no requestId character
            String pass = purchase.queuePass().orElseThrow();
            String bound = purchase.requestId() + "@" + purchase.skuId();
            try {
                switch (passes.bind(purchase.activityId(), purchase.userId(), pass, bound)) {
                    case TAKEN -> {
                        return new PurchaseOutcome.PassRequired(purchase.activityId(), "USED");
                    }
                    // the line withdrew it since the check above (its time ran out): its room went to the next buyer
                    case RAN_OUT -> {
                        return new PurchaseOutcome.PassRequired(purchase.activityId(), "EXPIRED");
                    }
                    case BOUND -> { }
                }
            } catch (seckill.queue.api.LineUnavailable unacknowledged) {
                // not bound (the line's Redis did not answer) or bound on its master alone (a failover could lose
                // it): either way the pass could buy again. Nothing was reserved; unbound, the pass buys when the
                // buyer asks again
                passes.release(purchase.activityId(), purchase.userId(), pass, bound);
                return new PurchaseOutcome.PassNotRecorded();
            }
            PurchaseOutcome outcome = admitAndReserve(purchase, activity, sku);
            if (gotNothing(outcome)) {
                // nothing was reserved: the pass may buy something else while it lasts
                passes.release(purchase.activityId(), purchase.userId(), pass, bound);
            } else if (outcome instanceof PurchaseOutcome.Reserved) {
                // frees the pass's room in the line for the next buyer now rather than at its expiry (the pass
                // bought, whatever the switch says by now)
                passes.used(purchase.activityId(), purchase.userId());
            }
            return outcome;
        }
        return admitAndReserve(purchase, activity, sku);
    }

    /** The rehearsal series is registered by the first rehearsal reservation, so a service without one shows none. */
    private Counter reservationsMade(long activityId) {
        if (World.of(activityId) == World.REAL) {
            return reservationsMade;
        }
        Counter rehearsal = rehearsalReservationsMade;
        if (rehearsal == null) {
            rehearsal = metrics.counter(RESERVATIONS, new Tag(World.LABEL, World.REHEARSAL.label()));
            rehearsalReservationsMade = rehearsal;
        }
        return rehearsal;
    }

    /** Outcomes after which the buyer certainly holds nothing from this purchase. */
    private static boolean gotNothing(PurchaseOutcome outcome) {
        return outcome instanceof PurchaseOutcome.NotAdmitted || outcome instanceof PurchaseOutcome.SoldOut
                || outcome instanceof PurchaseOutcome.InsufficientStock || outcome instanceof PurchaseOutcome.NotReady
                || outcome instanceof PurchaseOutcome.Busy;
    }

    private PurchaseOutcome admitAndReserve(Purchase purchase, Activity activity, SkuLine sku) {
        SaleWindow window = new SaleWindow(activity.startsAt(), activity.endsAt());
        PurchaseAttempt attempt = new PurchaseAttempt(purchase.activityId(), purchase.skuId(), purchase.userId(),
                purchase.clientIp(), window, purchase.purchaseToken(), purchase.requestId());
        AdmissionDecision decision = admission.admit(attempt);
        return switch (decision) {
            // the buyer's window travels with the reservation: one script call judges it, dedupe and stock
            case AdmissionDecision.Admitted admitted -> reserve(purchase, sku, attempt, window,
                    new BuyerWindow(admitted.buyerAttempts(), admitted.buyerWindowMillis()));
            case AdmissionDecision.InDoubt inDoubt -> haltInDoubt(purchase, HaltReason.RATE_LIMITS_IN_DOUBT, null);
            default -> new PurchaseOutcome.NotAdmitted(decision, window);
        };
    }

    private PurchaseOutcome reserve(Purchase purchase, SkuLine sku, PurchaseAttempt attempt, SaleWindow window,
                                    BuyerWindow buyerWindow) {
        // only admitted attempts take a place: what admission refused from memory never queued for one
        if (!inFlight.enter()) {
            return new PurchaseOutcome.Busy();
        }
        try {
            return reserveInFlight(purchase, sku, attempt, window, buyerWindow);
        } finally {
            inFlight.leave();
        }
    }

    private PurchaseOutcome reserveInFlight(Purchase purchase, SkuLine sku, PurchaseAttempt attempt,
                                            SaleWindow window, BuyerWindow buyerWindow) {
        ReservationOutcome outcome;
        try {
            outcome = reserving.reserve(new ReserveStock(purchase.activityId(), purchase.skuId(), sku.buckets(),
                    purchase.userId(), (int) purchase.quantity(), purchase.requestId(), buyerWindow));
        } catch (ReplicasMissing e) {
            // on the master, not on enough replicas: in doubt, and so will every next one be until a
            // replica is back; the halt says so, and settlement resumes only once one is
            return haltInDoubt(purchase, new HaltReason.NoReplica(e.replicas().online(), e.replicas().required()), e);
        } catch (ReservationUnavailable e) {
            if (!e.inDoubt()) {
                // the call never left this instance: nothing happened, a retry is safe
                return new PurchaseOutcome.Busy();
            }
            return haltInDoubt(purchase, HaltReason.RESERVATION_STORE_IN_DOUBT, e);
        }
        return switch (outcome) {
            case ReservationOutcome.Reserved reserved -> {
                reservationsMade(purchase.activityId()).inc();
                reserved.skuRemaining().ifPresent(remaining ->
                        admission.reservedLeaving(purchase.activityId(), purchase.skuId(), remaining));
                yield new PurchaseOutcome.Reserved(reserved.id());
            }
            case ReservationOutcome.Throttled throttled -> new PurchaseOutcome.NotAdmitted(
                    admission.throttledAtReservation(attempt, throttled.attempts(), throttled.retryAfterMillis()), window);
            case ReservationOutcome.AlreadyReserved already -> new PurchaseOutcome.AlreadyReserved(already.id());
            case ReservationOutcome.SoldOut soldOut -> {
                admission.soldOut(purchase.activityId(), purchase.skuId());
                yield new PurchaseOutcome.SoldOut(purchase.skuId());
            }
            case ReservationOutcome.InsufficientStock insufficient ->
                    new PurchaseOutcome.InsufficientStock(insufficient.remaining());
            case ReservationOutcome.NotPreheated notPreheated -> new PurchaseOutcome.NotReady();
            case ReservationOutcome.InProgress inProgress -> new PurchaseOutcome.InProgress();
            // never comes back from reserve (retried under a new node id there); nothing was taken
            case ReservationOutcome.IdTaken taken -> new PurchaseOutcome.Busy();
            case ReservationOutcome.Unreadable unreadable -> {
                LOG.severe(() -> "buyer " + purchase.userId() + " of activity " + purchase.activityId() + " sku "
                        + purchase.skuId() + " has a record in Redis this instance cannot read: " + unreadable.reply());
                yield new PurchaseOutcome.Unreadable();
            }
        };
    }

    /**
     * The arbiter is in doubt: stop issuing here until what is unsettled is counted (settlement resumes). Only the
     * purchase's world halts (docs/rehearsal.md): doubt met by a rehearsal never halts real sales; a real purchase
     * meets the same doubt itself if it is real.
     */
    private PurchaseOutcome haltInDoubt(Purchase purchase, HaltReason reason, Throwable cause) {
        World world = World.of(purchase.activityId());
        // the client library's error text goes to the log; clients and probes see the reason's stable words
        LOG.log(Level.WARNING, "Redis in doubt (" + reason.words() + "); halting " + (world == World.REAL ? ""
                : "rehearsal ") + "sales on this instance", cause);
        admission.halt(world, reason);
        return new PurchaseOutcome.HaltedInDoubt(reason);
    }
}
