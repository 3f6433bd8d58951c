package seckill.settlement;

import java.time.Clock;
import java.util.List;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import seckill.admission.api.Admission;
import seckill.ledger.api.catalogue.ActivityCatalog;
import seckill.ledger.api.RefillOutbox;
import seckill.ledger.api.catalogue.SkuLine;
import seckill.ledger.api.StockRefill;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.ReservationUnavailable;
import seckill.reservation.api.Restock;
import seckill.reservation.api.RestockOutcome;
import seckill.reservation.api.Restocking;

/**
 * The outbox relay: applies each waiting refill to Redis, then marks it applied. Redis remembers
 * which reservations it refilled, so a relay that crashes between the two steps repeats the first
 * harmlessly. A refill counts as applied only once the replicas a reservation needs acknowledged it
 * ({@code seckill.redis.min-replica-acks}): one only the master holds would die with it, so it stays
 * pending and is repeated. Applied stock clears the sold-out flag on every instance.
 */
@ApplicationScoped
class RelayingStockRefills {
    private static final Metadata REFILLS_APPLIED = Metadata.builder().withName("seckill.refills.applied")
            .withDescription("Refills (timed-out orders, failed reservations) the outbox relay put back into their "
                    + "Redis bucket.").build();
    private static final Metadata OUTBOX_BACKLOG = Metadata.builder().withName("seckill.outbox.backlog")
            .withDescription("Refills in the outbox not yet applied to Redis: units buyers cannot buy yet. Alert "
                    + "SeckillOutboxBacklog.").build();

    private static final Logger LOG = Logger.getLogger(RelayingStockRefills.class.getName());
    private static final int PAGE = 100;

    private final RefillOutbox ledger;

    private final Restocking restocking;

    private final Admission admission;

    private final ActivityCatalog catalog;

    private final Clock clock;

    private final MetricRegistry metrics;

    @Inject
    RelayingStockRefills(RefillOutbox ledger,
                         Restocking restocking,
                         Admission admission,
                         ActivityCatalog catalog,
                         Clock clock,
                         MetricRegistry metrics) {
        this.ledger = ledger;
        this.restocking = restocking;
        this.admission = admission;
        this.catalog = catalog;
        this.clock = clock;
        this.metrics = metrics;
    }

    private Counter refills;

    @PostConstruct
    void init() {
        refills = metrics.counter(REFILLS_APPLIED);
        metrics.gauge(OUTBOX_BACKLOG, this::backlog);
    }

    synchronized int relay() {
        int applied = 0;
        // keyset paging: a row left pending (unreadable, or for an operator) is passed, never read again
        // in this run, so the relay cannot loop on a page of rows it cannot apply
        long after = 0;
        while (true) {
            List<StockRefill> page = ledger.pendingRefills(after, PAGE);
            for (StockRefill refill : page) {
                after = refill.id();
                ReservationId id = ReservationId.parse(refill.reservationId()).orElse(null);
                if (id == null) {
                    LOG.severe(() -> "outbox row " + refill.id() + " names no valid reservation; left for an operator");
                    ledger.refillAttemptFailed(refill.id());
                    continue;
                }
                java.util.Optional<SkuLine> sku = catalog.findInLedger(refill.activityId()).flatMap(a -> a.sku(refill.skuId()));
                if (sku.isEmpty()) {
                    // the refill of an event whose activity (or SKU) the ledger does not have: no shelf this
                    // service knows the layout of, as when the keys are gone
                    LOG.warning(() -> "outbox row " + refill.id() + " refills a SKU the ledger does not have; nothing to put back");
                    ledger.refillApplied(refill.id(), clock.instant());
                    continue;
                }
                int buckets = sku.get().buckets();
                if (id.bucket() >= buckets) {
                    LOG.severe(() -> "outbox row " + refill.id() + " names bucket " + id.bucket() + " of a SKU with " + buckets
                            + "; left for an operator");
                    ledger.refillAttemptFailed(refill.id());
                    continue;
                }
                RestockOutcome outcome;
                try {
                    outcome = restocking.restock(new Restock(id, refill.userId(), refill.quantity(),
                            refill.releaseBuyer(), buckets));
                } catch (ReservationUnavailable e) {
                    // Redis did not answer, or too few replicas acknowledged: pending, repeated next run
                    ledger.refillAttemptFailed(refill.id());
                    return applied;
                }
                ledger.refillApplied(refill.id(), clock.instant());
                if (outcome == RestockOutcome.APPLIED) {
                    applied++;
                    refills.inc();
                }
                if (outcome != RestockOutcome.KEYS_GONE) {
                    // also after ALREADY_APPLIED: the crash that made us repeat may have skipped this
                    admission.restocked(refill.activityId(), refill.skuId());
                }
            }
            if (page.size() < PAGE) {
                return applied;
            }
        }
    }

    private long backlog() {
        try {
            return ledger.refillBacklog();
        } catch (RuntimeException e) {
            return -1;
        }
    }
}
