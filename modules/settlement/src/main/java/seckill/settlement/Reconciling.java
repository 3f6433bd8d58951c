package seckill.settlement;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.logging.Logger;

import io.helidon.dbclient.DbClient;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import seckill.ledger.wiring.ShadowLedger;
import seckill.redis.World;
import seckill.ledger.api.catalogue.Activity;
import seckill.ledger.api.catalogue.ActivityCatalog;
import seckill.ledger.api.LedgerFigures;
import seckill.ledger.api.LedgerReconciliation;
import seckill.ledger.api.SettledUnits;
import seckill.ledger.api.catalogue.SkuLine;
import seckill.reservation.api.BucketSnapshot;
import seckill.reservation.api.PreheatStock;
import seckill.reservation.api.ReservationEvents;
import seckill.settlement.api.Reconciliation;
import seckill.settlement.api.SkuReconciliation;
import seckill.settlement.rules.BucketBalance;
import seckill.settlement.rules.LostRefills;
import seckill.settlement.sql.SettlementRows;

/**
 * Reconciliation of each live SKU: MySQL against itself, then each bucket's Redis figures against
 * the ledger and the stream. Each bucket is read from Redis in one atomic snapshot (stock, refills,
 * last event, unsettled events), then the ledger as of exactly that snapshot's events, so work in
 * flight is counted once and is never an alarm ({@link BucketBalance}). A mismatch is still judged
 * twice, a second apart, before it is reported. Results are stored; a clean SKU has its settled
 * stream entries trimmed. Each bucket's refills marked applied in the ledger are compared with those
 * Redis holds ({@link LostRefills}): a lost refill leaves the bucket balanced, so only this finds it,
 * and it goes back to the outbox to be applied again (idempotently, by its reservation id).
 * <p>
 * One reconciliation per world (docs/rehearsal.md): {@link #reconcileLive(World)} judges that world's live
 * activities, from that world's ledger and keys, stores the results in that world's {@code seckill_reconciliation}
 * and keeps that world's latest results apart, so a rehearsal can neither make the real reconciliation dirty (nor
 * readiness, which asks the real world's {@link #alarm()}) nor clean it. The metrics carry {@code world}.
 */
@ApplicationScoped
class Reconciling implements Reconciliation {
    private static final Metadata MISMATCHES = Metadata.builder().withName("seckill.reconciliation.mismatches")
            .withDescription("SKU reconciliations (re-judged once) where Redis' stock, the bucket streams and the "
                    + "ledger disagree beyond the work in flight. Alert SeckillReconciliationMismatch.").build();
    private static final Metadata OVERSOLD = Metadata.builder().withName("seckill.reconciliation.oversold")
            .withDescription("SKU reconciliations that found more units ordered than the SKU had: must never happen. "
                    + "Alert SeckillOversold.").build();
    private static final Metadata REFILLS_LOST = Metadata.builder().withName("seckill.reconciliation.refills-lost")
            .withDescription("Refills the ledger had marked applied but Redis no longer held (lost in a failover), put "
                    + "back to pending so the outbox relay applies them again.").build();

    private static final Logger LOG = Logger.getLogger(Reconciling.class.getName());

    private final ActivityCatalog catalog;
    private final LedgerReconciliation ledger;
    private final ReservationEvents events;
    private final DbClient db;
    private final Optional<DbClient> shadow;
    private final Clock clock;
    private final MetricRegistry metrics;
    private final long keysOutliveEndSeconds;
    private final int snapshotPageSize;

    @Inject
    Reconciling(ActivityCatalog catalog,
                LedgerReconciliation ledger,
                ReservationEvents events,
                DbClient db,
                Clock clock,
                MetricRegistry metrics,
                SettlementSettings settings,
                @ShadowLedger Optional<DbClient> shadow) {
        this.shadow = shadow;
        this.catalog = catalog;
        this.ledger = ledger;
        this.events = events;
        this.db = db;
        this.clock = clock;
        this.metrics = metrics;
        this.keysOutliveEndSeconds = settings.keysOutliveEndSeconds();
        this.snapshotPageSize = settings.snapshotPageSize();
    }

    /** What this instance keeps of one world: its rows, its latest results, its figures, its one pass at a time. */
    private record Judged(SettlementRows rows, Map<String, SkuReconciliation> latest, Semaphore pass,
                          java.util.concurrent.atomic.AtomicBoolean seeded, Counter mismatches, Counter oversells,
                          Counter lostRefills) {
    }

    private final Map<World, Judged> worlds = new EnumMap<>(World.class);

    @PostConstruct
    void init() {
        for (World world : World.values()) {
            Optional<DbClient> client = world == World.REAL ? Optional.of(db) : shadow;
            client.ifPresent(c -> {
                Tag label = new Tag(World.LABEL, world.label());
                worlds.put(world, new Judged(new SettlementRows(c), new java.util.concurrent.ConcurrentHashMap<>(),
                        new Semaphore(1), new java.util.concurrent.atomic.AtomicBoolean(),
                        metrics.counter(MISMATCHES, label), metrics.counter(OVERSOLD, label),
                        metrics.counter(REFILLS_LOST, label)));
            });
        }
    }

    /** The real world's {@link #reconcileLive(World)}. */
    public List<SkuReconciliation> reconcileLive() {
        return reconcileLive(World.REAL);
    }

    /**
     * Every activity of {@code world} whose Redis keys still exist. One pass at a time per world and instance:
     * the schedule, the resume check and an operator's resume share one pass; a caller that finds one running is
     * refused ({@code BulkheadException}) and asks again on its next turn. The two worlds' passes may overlap.
     * Nothing for {@code REHEARSAL} without a shadow ledger.
     */
    public List<SkuReconciliation> reconcileLive(World world) {
        Judged judged = worlds.get(world);
        if (judged == null) {
            return List.of();
        }
        if (!judged.pass().tryAcquire()) {
            throw new BulkheadException("a " + world.label() + " reconciliation pass is already running on this instance");
        }
        try {
            List<SkuReconciliation> all = new ArrayList<>();
            List<Long> live = liveActivities(world);
            for (long activityId : live) {
                all.addAll(reconcile(activityId));
            }
            // activities whose keys expired are no longer judged, nor alarming
            judged.latest().values().removeIf(r -> !live.contains(r.activityId()));
            return all;
        } finally {
            judged.pass().release();
        }
    }

    /** An operator's reconciliation of one activity; the admin call gives up after 30 s (503, retry). */
    @Override
    @Timeout(value = 30, unit = ChronoUnit.SECONDS)
    public List<SkuReconciliation> reconcile(long activityId) {
        Judged judged = worlds.get(World.of(activityId));
        Activity activity = judged == null ? null : catalog.find(activityId).orElse(null);
        if (activity == null) {
            return List.of();
        }
        List<SkuReconciliation> results = new ArrayList<>();
        for (SkuLine sku : activity.skus()) {
            // the registry first: a bucket missing from it is read by no worker, its events "in flight" for ever
            List<String> unregistered = events.registerStreams(World.of(activityId), streamsOf(activityId, sku));
            SkuReconciliation result = judge(activityId, sku);
            if (result.alarming()) {
                sleep();
                result = judge(activityId, sku);
            }
            if (!unregistered.isEmpty()) {
                LOG.warning("activity " + activityId + " sku " + sku.skuId() + ": stream registry lacked "
                        + unregistered + "; registered again");
                if (result.clean()) {
                    // its events were counted in flight while nobody read them: not clean until judged again
                    result = new SkuReconciliation(activityId, sku.skuId(), result.checkedAt(), "IN_FLIGHT",
                            result.figures(), unregistered.size() + " bucket stream(s) were missing from the stream"
                            + " registry, so no worker read them; registered again, judged again next time");
                }
            }
            judged.rows().recordReconciliation(result);
            judged.latest().put(key(result), result);
            report(judged, result);
            if (result.clean()) {
                trim(activityId, sku);
            }
            results.add(result);
        }
        return results;
    }

    @Override
    @Timeout(value = 5, unit = ChronoUnit.SECONDS)
    public List<SkuReconciliation> latest(long activityId) {
        Judged judged = worlds.get(World.of(activityId));
        return judged == null ? List.of() : judged.rows().latest(activityId);
    }

    /**
     * Served from memory (readiness asks often): the latest result per SKU as this instance judged
     * it, seeded once from the stored results so an alarm survives a restart.
     */
    @Override
    public Optional<SkuReconciliation> alarm(World world) {
        Judged judged = worlds.get(world);
        if (judged == null) {
            return Optional.empty();
        }
        if (!judged.seeded().get()) {
            synchronized (judged) {
                if (!judged.seeded().get()) {
                    for (long activityId : liveActivities(world)) {
                        judged.rows().latest(activityId).forEach(r -> judged.latest().putIfAbsent(key(r), r));
                    }
                    judged.seeded().set(true);
                }
            }
        }
        return judged.latest().values().stream().filter(SkuReconciliation::alarming).findFirst();
    }

    private static String key(SkuReconciliation result) {
        return result.activityId() + ":" + result.skuId();
    }

    private List<Long> liveActivities(World world) {
        return catalog.endingAfter(world, clock.instant().minus(Duration.ofSeconds(keysOutliveEndSeconds)));
    }

    private SkuReconciliation judge(long activityId, SkuLine sku) {
        Instant now = clock.instant();
        LedgerFigures ledgerFigures = ledger.figures(activityId, sku.skuId());
        Map<String, Long> f = new LinkedHashMap<>();
        f.put("total", ledgerFigures.total());
        f.put("available", ledgerFigures.available());
        f.put("deducted", ledgerFigures.deducted());
        f.put("refilled", ledgerFigures.refilled());
        f.put("settled", ledgerFigures.orderedUnits());
        f.put("deadLettered", ledgerFigures.failedUnits());
        f.put("released", ledgerFigures.appliedRefillUnits());
        f.put("refillsWaiting", ledgerFigures.pendingRefillUnits());
        if (ledgerFigures.oversold()) {
            return new SkuReconciliation(activityId, sku.skuId(), now, "OVERSOLD", f,
                    "OVERSOLD: available " + ledgerFigures.available() + ", deducted " + ledgerFigures.deducted()
                            + ", refilled " + ledgerFigures.refilled() + " of " + ledgerFigures.total());
        }
        if (!ledgerFigures.ledgerBalances()) {
            return new SkuReconciliation(activityId, sku.skuId(), now, "MISMATCH", f,
                    "MySQL: total " + ledgerFigures.total() + " != available " + ledgerFigures.available()
                            + " + deducted " + ledgerFigures.deducted() + " - refilled " + ledgerFigures.refilled());
        }
        // each bucket: one atomic Redis snapshot, then the ledger as of that snapshot's events
        List<BucketBalance> balances = new ArrayList<>(sku.buckets());
        List<LostRefills.Finding> refillFindings = new ArrayList<>();
        for (int bucket = 0; bucket < sku.buckets(); bucket++) {
            // the ledger first: a refill is marked applied only once Redis holds it, so Redis can only hold more
            long appliedRefills = ledger.appliedRefillUnits(activityId, sku.skuId(), bucket);
            BucketSnapshot snapshot = events.snapshot(activityId, sku.skuId(), bucket, sku.buckets(), snapshotPageSize);
            switch (snapshot) {
                case BucketSnapshot.NotPreheated notPreheated -> {
                    return new SkuReconciliation(activityId, sku.skuId(), now, "NOT_PREHEATED", f,
                            "Redis has no stock for bucket " + bucket + " of this SKU; preheat it again");
                }
                case BucketSnapshot.Taken taken -> {
                    SettledUnits settled = ledger.settledAsOf(activityId, sku.skuId(), bucket, taken.lastEvent(),
                            taken.unsettledReservations());
                    balances.add(new BucketBalance(bucket, PreheatStock.share(sku.total(), sku.buckets(), bucket),
                            taken.remaining(), taken.refilledUnits(), taken.unsettledUnits(), taken.lostEvents(),
                            settled.total()));
                    LostRefills refills = new LostRefills(bucket, appliedRefills, taken.refilledUnits());
                    if (refills.suspected()) {
                        refillFindings.add(lostRefills(activityId, sku, refills));
                    }
                }
            }
        }
        f.put("pending", balances.stream().mapToLong(BucketBalance::unsettledUnits).sum());
        f.put("redisReserved", balances.stream().mapToLong(BucketBalance::reserved).sum());
        f.put("redisRefilled", balances.stream().mapToLong(BucketBalance::refilledUnits).sum());
        if (balances.size() > 1) {
            for (BucketBalance b : balances) {
                f.put("b" + b.bucket() + ".reserved", b.reserved());
                f.put("b" + b.bucket() + ".accounted", b.accounted());
            }
        }
        Optional<String> refillDetail = refillFindings.stream().map(finding -> switch (finding) {
            case LostRefills.None none -> (String) null;
            case LostRefills.Lost lost -> lost.detail();
            case LostRefills.Unexplained unexplained -> unexplained.detail();
        }).filter(java.util.Objects::nonNull).findFirst();
        f.put("refillsLost", refillFindings.stream().filter(LostRefills.Lost.class::isInstance)
                .mapToLong(lost -> ((LostRefills.Lost) lost).refills().size()).sum());
        // never CLEAN while a refill marked applied is missing from Redis: the ones put back count as waiting next time
        return BucketBalance.firstMismatch(balances).or(() -> refillDetail)
                .map(detail -> new SkuReconciliation(activityId, sku.skuId(), now, "MISMATCH", f, detail))
                .orElseGet(() -> new SkuReconciliation(activityId, sku.skuId(), now, "CLEAN", f, null));
    }

    /**
     * Reads the bucket's applied refills and asks Redis which it holds; lost ones go back to the
     * outbox as pending, for the relay to apply again under the replica acknowledgement.
     */
    private LostRefills.Finding lostRefills(long activityId, SkuLine sku, LostRefills refills) {
        List<LostRefills.Applied> applied = ledger.appliedRefills(activityId, sku.skuId(), refills.bucket()).stream()
                .map(r -> new LostRefills.Applied(r.id(), r.reservationId(), r.quantity())).toList();
        java.util.Set<String> inRedis = events.refilledAmong(activityId, sku.skuId(), refills.bucket(), sku.buckets(),
                applied.stream().map(LostRefills.Applied::reservationId).toList());
        LostRefills.Finding finding = refills.judge(applied, inRedis);
        if (finding instanceof LostRefills.Lost lost) {
            World world = World.of(activityId);
            int pending = ledger.refillsLost(world, lost.refills().stream().map(LostRefills.Applied::refillId).toList());
            worlds.get(world).lostRefills().inc(pending);
            LOG.warning(() -> "activity " + activityId + " sku " + sku.skuId() + ", " + lost.detail() + ": "
                    + lost.refills().stream().map(LostRefills.Applied::reservationId).toList());
        }
        return finding;
    }

    private void report(Judged judged, SkuReconciliation result) {
        switch (result.state()) {
            case "OVERSOLD" -> {
                judged.oversells().inc();
                LOG.severe(() -> "OVERSELL ALARM activity " + result.activityId() + " sku " + result.skuId() + ": "
                        + result.detail() + " " + result.figures());
            }
            case "MISMATCH" -> {
                judged.mismatches().inc();
                LOG.warning(() -> "reconciliation mismatch activity " + result.activityId() + " sku " + result.skuId()
                        + ": " + result.detail() + " " + result.figures());
            }
            default -> {
                // clean or in flight: nothing to raise
            }
        }
    }

    private List<String> streamsOf(long activityId, SkuLine sku) {
        List<String> streams = new ArrayList<>(sku.buckets());
        for (int bucket = 0; bucket < sku.buckets(); bucket++) {
            streams.add(events.streamOf(activityId, sku.skuId(), bucket, sku.buckets()));
        }
        return streams;
    }

    private void trim(long activityId, SkuLine sku) {
        for (int bucket = 0; bucket < sku.buckets(); bucket++) {
            String stream = events.streamOf(activityId, sku.skuId(), bucket, sku.buckets());
            try {
                events.trimSettled(stream);
            } catch (RuntimeException e) {
                LOG.fine(() -> "could not trim " + stream + ": " + e.getMessage());
            }
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
