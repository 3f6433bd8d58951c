package seckill.ledger;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.ledger.api.catalogue.Activity;
import seckill.ledger.api.catalogue.ActivityCatalog;
import seckill.ledger.api.catalogue.SkuLine;
import seckill.redis.World;
import seckill.reservation.api.ReservationEvents;

/**
 * The streams the ordering workers read and the lag metric counts: the registry's members, and the
 * bucket streams of every activity the ledger says is live or in its grace period. The registry is
 * only an index: on a Redis Cluster it cannot be written atomically with a bucket (one script's keys
 * share one slot, and the registry is one key for all buckets), and Redis may lose a member (an
 * operator, a failover between the preheat and its registration). The ledger is what must exist, so
 * a lost member is still read, and is written back into the registry ({@link
 * ReservationEvents#registerStreams}), at most {@code seckill.ordering.streams-repair-seconds} later.
 */
@ApplicationScoped
class LiveStreams {

    private static final Logger LOG = Logger.getLogger(LiveStreams.class.getName());

    /** How often the registry is read again (a constant: this is read on every pass of every worker). */
    private static final long REGISTRY_REREAD_NANOS = Duration.ofSeconds(1).toNanos();

    private final World world;
    private final ReservationEvents events;
    private final ActivityCatalog catalog;
    private final Clock clock;
    private final long repairNanos;
    private final Duration keysOutliveEnd;

    private volatile List<String> registered = List.of();
    private volatile long registeredAt;
    private volatile List<String> fromLedger = List.of();
    private volatile long fromLedgerAt;
    private volatile boolean readOnce;
    private volatile boolean registryDue = true;
    private volatile List<String> union = List.of();

    @Inject
    LiveStreams(ReservationEvents events, ActivityCatalog catalog, Clock clock, OrderingSettings settings) {
        this(World.REAL, events, catalog, clock, settings);
    }

    /**
     * The streams of {@code world}: its registry ({@code rh:streams} for rehearsals) and its ledger's live
     * activities, for that world's workers (docs/rehearsal.md); never made through CDI.
     */
    LiveStreams(World world, ReservationEvents events, ActivityCatalog catalog, Clock clock, OrderingSettings settings) {
        this.world = world;
        this.events = events;
        this.catalog = catalog;
        this.clock = clock;
        this.repairNanos = Duration.ofSeconds(Math.max(1, settings.streamsRepairSeconds())).toNanos();
        this.keysOutliveEnd = Duration.ofSeconds(settings.keysOutliveEndSeconds());
    }

    /** The streams to read: the registry's, and those the ledger says must exist (repaired into the registry). */
    List<String> list() {
        long now = System.nanoTime();
        if (!readOnce || now - fromLedgerAt > repairNanos) {
            fromLedgerAt = now;
            readOnce = true;
            repair();
            // the registry right after it, so the union holds what the repair found
            registryDue = true;
        }
        if (registryDue || now - registeredAt > REGISTRY_REREAD_NANOS) {
            registryDue = false;
            registered = events.activeStreams(world);
            registeredAt = now;
            // every pass of every worker asks: the union is formed when either side is read, not per call
            Set<String> all = new LinkedHashSet<>(registered);
            all.addAll(fromLedger);
            union = List.copyOf(all);
        }
        return union;
    }

    private void repair() {
        try {
            List<String> streams = new ArrayList<>();
            for (long activityId : catalog.endingAfter(world, clock.instant().minus(keysOutliveEnd))) {
                Activity activity = catalog.findInLedger(activityId).orElse(null);
                if (activity == null) {
                    continue;
                }
                for (SkuLine sku : activity.skus()) {
                    for (int bucket = 0; bucket < sku.buckets(); bucket++) {
                        streams.add(events.streamOf(activityId, sku.skuId(), bucket, sku.buckets()));
                    }
                }
            }
            List<String> putBack = events.registerStreams(world, streams);
            fromLedger = List.copyOf(streams);
            if (!putBack.isEmpty()) {
                LOG.warning(() -> "stream registry lacked " + putBack.size() + " live bucket stream(s), registered again: "
                        + putBack);
            }
        } catch (RuntimeException e) {
            // the ledger or Redis away: the streams known so far are read on; the next repair tries again
            LOG.fine(() -> "stream registry not repaired: " + e.getMessage());
        }
    }
}
