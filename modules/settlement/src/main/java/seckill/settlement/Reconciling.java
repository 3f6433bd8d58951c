package seckill.settlement;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Logger;

import io.helidon.dbclient.DbClient;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricRegistry;
import seckill.ordering.api.Activity;
import seckill.ordering.api.ActivityCatalog;
import seckill.ordering.api.BucketFigures;
import seckill.ordering.api.LedgerFigures;
import seckill.ordering.api.OrderLedger;
import seckill.ordering.api.SkuLine;
import seckill.reservation.api.PreheatStock;
import seckill.reservation.api.ReservationEvents;
import seckill.reservation.api.StockReservations;
import seckill.settlement.api.Reconciliation;
import seckill.settlement.api.SkuReconciliation;
import seckill.settlement.sql.SettlementRows;

/**
 * Reconciliation of each live SKU: MySQL against itself, then Redis against the ledger and the
 * stream. A mismatch is judged twice, a second apart, before it is reported, because an event can
 * be committed but not yet acknowledged at the instant both sides are read. Results are stored;
 * a clean SKU with nothing in flight has its settled stream entries trimmed.
 */
@ApplicationScoped
class Reconciling implements Reconciliation {

    private static final Logger LOG = Logger.getLogger(Reconciling.class.getName());
    private static final int MAX_COUNTED_EVENTS = 10_000;

    @Inject
    ActivityCatalog catalog;

    @Inject
    OrderLedger ledger;

    @Inject
    StockReservations reservations;

    @Inject
    ReservationEvents events;

    @Inject
    DbClient db;

    @Inject
    Clock clock;

    @Inject
    MetricRegistry metrics;

    @Inject
    @ConfigProperty(name = "seckill.reservation.keys-outlive-end-seconds", defaultValue = "259200")
    long keysOutliveEndSeconds;

    private SettlementRows rows;
    private final java.util.Map<String, SkuReconciliation> latest = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile boolean seeded;
    private Counter mismatches;
    private Counter oversells;

    @PostConstruct
    void init() {
        rows = new SettlementRows(db);
        mismatches = metrics.counter("seckill.reconciliation.mismatches");
        oversells = metrics.counter("seckill.reconciliation.oversold");
    }

    /** Every activity whose Redis keys still exist. */
    List<SkuReconciliation> reconcileLive() {
        List<SkuReconciliation> all = new ArrayList<>();
        List<Long> live = liveActivities();
        for (long activityId : live) {
            all.addAll(reconcile(activityId));
        }
        // activities whose keys expired are no longer judged, nor alarming
        latest.values().removeIf(r -> !live.contains(r.activityId()));
        return all;
    }

    @Override
    public List<SkuReconciliation> reconcile(long activityId) {
        Activity activity = catalog.find(activityId).orElse(null);
        if (activity == null) {
            return List.of();
        }
        List<SkuReconciliation> results = new ArrayList<>();
        for (SkuLine sku : activity.skus()) {
            SkuReconciliation result = judge(activityId, sku);
            if (result.alarming()) {
                sleep();
                result = judge(activityId, sku);
            }
            rows.recordReconciliation(result);
            latest.put(key(result), result);
            report(result);
            if (result.clean()) {
                trim(activityId, sku);
            }
            results.add(result);
        }
        return results;
    }

    @Override
    public List<SkuReconciliation> latest(long activityId) {
        return rows.latest(activityId);
    }

    /**
     * Served from memory (readiness asks often): the latest result per SKU as this instance judged
     * it, seeded once from the stored results so an alarm survives a restart.
     */
    @Override
    public Optional<SkuReconciliation> alarm() {
        if (!seeded) {
            synchronized (latest) {
                if (!seeded) {
                    for (long activityId : liveActivities()) {
                        rows.latest(activityId).forEach(r -> latest.putIfAbsent(key(r), r));
                    }
                    seeded = true;
                }
            }
        }
        return latest.values().stream().filter(SkuReconciliation::alarming).findFirst();
    }

    private static String key(SkuReconciliation result) {
        return result.activityId() + ":" + result.skuId();
    }

    private List<Long> liveActivities() {
        return catalog.endingAfter(clock.instant().minus(Duration.ofSeconds(keysOutliveEndSeconds)));
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
        long pending = 0;
        long[] pendingByBucket = new long[ledgerFigures.buckets()];
        for (int bucket = 0; bucket < ledgerFigures.buckets(); bucket++) {
            String stream = events.streamOf(activityId, sku.skuId(), bucket, sku.buckets());
            long units = events.pendingUnits(stream, MAX_COUNTED_EVENTS);
            if (units < 0) {
                return new SkuReconciliation(activityId, sku.skuId(), now, "IN_FLIGHT", f,
                        "more than " + MAX_COUNTED_EVENTS + " events in flight; judged again next time");
            }
            pending += units;
            pendingByBucket[bucket] = units;
        }
        f.put("pending", pending);
        Optional<Long> remaining = reservations.remaining(activityId, sku.skuId(), ledgerFigures.buckets());
        if (remaining.isEmpty()) {
            return new SkuReconciliation(activityId, sku.skuId(), now, "MISMATCH", f, "Redis has no stock keys for this SKU");
        }
        long reserved = ledgerFigures.total() - remaining.get();
        f.put("redisReserved", reserved);
        long accounted = ledgerFigures.orderedUnits() + pending + ledgerFigures.failedUnits()
                - ledgerFigures.appliedRefillUnits();
        if (reserved != accounted) {
            return new SkuReconciliation(activityId, sku.skuId(), now, "MISMATCH", f,
                    "Redis reserved " + reserved + " != settled " + ledgerFigures.orderedUnits() + " + pending " + pending
                            + " + dead-lettered " + ledgerFigures.failedUnits() + " - released "
                            + ledgerFigures.appliedRefillUnits());
        }
        if (ledgerFigures.buckets() > 1) {
            String bucketMismatch = judgeBuckets(activityId, sku.skuId(), ledgerFigures, pendingByBucket, f);
            if (bucketMismatch != null) {
                return new SkuReconciliation(activityId, sku.skuId(), now, "MISMATCH", f, bucketMismatch);
            }
        }
        return new SkuReconciliation(activityId, sku.skuId(), now, "CLEAN", f, null);
    }

    /**
     * The same equation per bucket: a SKU can balance while units sit in the wrong bucket (a refill
     * to the wrong one, a bucket's counter touched by hand). Figures go in as {@code b<i>.reserved}
     * and {@code b<i>.accounted}; the first bucket that does not balance is named.
     */
    private String judgeBuckets(long activityId, long skuId, LedgerFigures sku, long[] pendingByBucket,
                                Map<String, Long> f) {
        Optional<List<Long>> remaining = reservations.remainingByBucket(activityId, skuId, sku.buckets());
        if (remaining.isEmpty()) {
            return "Redis lacks a bucket's stock key for this SKU";
        }
        long[] accounted = pendingByBucket.clone();
        for (BucketFigures bucket : ledger.figuresByBucket(activityId, skuId)) {
            if (bucket.bucket() < 0 || bucket.bucket() >= accounted.length) {
                return "the ledger holds units of bucket " + bucket.bucket() + " of a SKU with " + sku.buckets();
            }
            accounted[bucket.bucket()] += bucket.orderedUnits() + bucket.failedUnits() - bucket.appliedRefillUnits();
        }
        String mismatch = null;
        for (int b = 0; b < sku.buckets(); b++) {
            long reserved = PreheatStock.share(sku.total(), sku.buckets(), b) - remaining.get().get(b);
            f.put("b" + b + ".reserved", reserved);
            f.put("b" + b + ".accounted", accounted[b]);
            if (reserved != accounted[b] && mismatch == null) {
                mismatch = "bucket " + b + ": Redis reserved " + reserved + " != settled + pending + dead-lettered"
                        + " - released " + accounted[b];
            }
        }
        return mismatch;
    }

    private void report(SkuReconciliation result) {
        switch (result.state()) {
            case "OVERSOLD" -> {
                oversells.inc();
                LOG.severe(() -> "OVERSELL ALARM activity " + result.activityId() + " sku " + result.skuId() + ": "
                        + result.detail() + " " + result.figures());
            }
            case "MISMATCH" -> {
                mismatches.inc();
                LOG.warning(() -> "reconciliation mismatch activity " + result.activityId() + " sku " + result.skuId()
                        + ": " + result.detail() + " " + result.figures());
            }
            default -> {
                // clean or in flight: nothing to raise
            }
        }
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
