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
import org.eclipse.microprofile.metrics.Tag;
import io.helidon.dbclient.DbClient;
import seckill.ledger.wiring.ShadowLedger;
import seckill.admission.api.Admission;
import seckill.ledger.api.catalogue.ActivityCatalog;
import seckill.ledger.api.RefillOutbox;
import seckill.ledger.api.catalogue.SkuLine;
import seckill.ledger.api.StockRefill;
import seckill.redis.World;
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
 * <p>
 * One relay per world (docs/rehearsal.md): {@link #relay(World)} reads the outbox of that world's ledger and
 * applies only refills of that world's activities (their keys follow from the id: {@code rh:} for a rehearsal);
 * a row naming an activity of the other world is left for an operator, never applied. {@code seckill.refills.applied}
 * and the backlog gauge carry {@code world="real"}, and a {@code world="rehearsal"} twin when the shadow database is
 * configured.
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
                         MetricRegistry metrics,
                         @ShadowLedger java.util.Optional<DbClient> shadow) {
        this.shadowLedger = shadow.isPresent();
        this.ledger = ledger;
        this.restocking = restocking;
        this.admission = admission;
        this.catalog = catalog;
        this.clock = clock;
        this.metrics = metrics;
    }

    private final boolean shadowLedger;
    private final java.util.Map<World, Counter> refills = new java.util.EnumMap<>(World.class);

    @PostConstruct
    void init() {
        for (World world : World.values()) {
            if (world == World.REAL || shadowLedger) {
                Tag label = new Tag(World.LABEL, world.label());
                refills.put(world, metrics.counter(REFILLS_APPLIED, label));
                metrics.gauge(OUTBOX_BACKLOG, () -> backlog(world), label);
            }
        }
    }

    private final Object realRun = new Object();
    private final Object rehearsalRun = new Object();

    int relay() {
        return relay(World.REAL);
    }

    /** One run of the relay of {@code world}'s outbox; runs of one world never overlap, the two worlds' may. */
    int relay(World world) {
        synchronized (world == World.REAL ? realRun : rehearsalRun) {
            return relayRun(world);
        }
    }

    private int relayRun(World world) {
        int applied = 0;
        // keyset paging: a row left pending (unreadable, or for an operator) is passed, never read again
        // in this run, so the relay cannot loop on a page of rows it cannot apply
        long after = 0;
        while (true) {
            List<StockRefill> page = ledger.pendingRefills(world, after, PAGE);
            for (StockRefill refill : page) {
                after = refill.id();
                ReservationId id = ReservationId.parse(refill.reservationId()).orElse(null);
                if (id == null) {
                    LOG.severe(() -> "outbox row " + refill.id() + " names no valid reservation; left for an operator");
                    ledger.refillAttemptFailed(world, refill.id());
                    continue;
                }
                if (World.of(refill.activityId()) != world || World.of(id.activityId()) != world) {
                    // an outbox row of one world naming the other's activity: applying it would touch the
                    // other world's keys
                    LOG.severe(() -> "outbox row " + refill.id() + " of the " + world + " ledger names activity "
                            + refill.activityId() + " of another world; left for an operator");
                    ledger.refillAttemptFailed(world, refill.id());
                    continue;
                }
                java.util.Optional<SkuLine> sku = catalog.findInLedger(refill.activityId()).flatMap(a -> a.sku(refill.skuId()));
                if (sku.isEmpty()) {
                    // the refill of an event whose activity (or SKU) the ledger does not have: no shelf this
                    // service knows the layout of, as when the keys are gone
                    LOG.warning(() -> "outbox row " + refill.id() + " refills a SKU the ledger does not have; nothing to put back");
                    ledger.refillApplied(world, refill.id(), clock.instant());
                    continue;
                }
                int buckets = sku.get().buckets();
                if (id.bucket() >= buckets) {
                    LOG.severe(() -> "outbox row " + refill.id() + " names bucket " + id.bucket() + " of a SKU with " + buckets
                            + "; left for an operator");
                    ledger.refillAttemptFailed(world, refill.id());
                    continue;
                }
                RestockOutcome outcome;
                try {
                    outcome = restocking.restock(new Restock(id, refill.userId(), refill.quantity(),
                            refill.releaseBuyer(), buckets));
                } catch (ReservationUnavailable e) {
                    // Redis did not answer, or too few replicas acknowledged: pending, repeated next run
                    ledger.refillAttemptFailed(world, refill.id());
                    return applied;
                }
                ledger.refillApplied(world, refill.id(), clock.instant());
                if (outcome == RestockOutcome.APPLIED) {
                    applied++;
                    Counter counted = refills.get(world);
                    if (counted != null) {
                        counted.inc();
                    }
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

    private long backlog(World world) {
        try {
            return ledger.refillBacklog(world);
        } catch (RuntimeException e) {
            return -1;
        }
    }
}
