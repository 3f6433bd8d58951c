package seckill.reservation;

import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.ReservationUnavailable;
import seckill.reservation.redis.NodeLease;
import seckill.reservation.redis.ReservationSequence;

/**
 * The node id this instance mints reservation ids (and preheat and restore ids) under: leased from
 * Redis at start-up, renewed every third of the lease, given back at shutdown, and replaced when a
 * bucket shows an id minted under it was minted by another instance too. Only under a valid lease
 * does it hand out sequence numbers: an instance without one does not sell.
 */
@HotPathSingleton
class LeasingNodeIds {
    private static final Metadata NODE_IDS_REPLACED = Metadata.builder().withName("seckill.reservation.node-ids-replaced")
            .withDescription("Times this instance replaced its node id because a reservation id it minted already "
                    + "existed in its bucket (another instance held the same node id: lease keys lost in "
                    + "Redis).").build();

    private static final Logger LOG = Logger.getLogger(LeasingNodeIds.class.getName());

    private final UnifiedJedis redis;
    private final Clock clock;
    private final MetricRegistry metrics;
    /** How long a node id lease lasts without renewal; renewed every third of it. */
    private final Duration nodeLease;

    private volatile ReservationSequence sequence;
    private NodeLease lease;
    private ScheduledExecutorService renewals;
    private Counter nodeIdsReplaced;

    @Inject
    LeasingNodeIds(UnifiedJedis redis, Clock clock, MetricRegistry metrics, ReservationSettings settings) {
        this.redis = redis;
        this.clock = clock;
        this.metrics = metrics;
        this.nodeLease = settings.nodeLease();
    }

    @PostConstruct
    void leaseNodeId() {
        // registered now, so the series (and its help) exists before the rare event it counts
        nodeIdsReplaced = metrics.counter(NODE_IDS_REPLACED);
        lease = new NodeLease(redis, System::nanoTime, nodeLease,
                ProcessHandle.current().pid() + ":" + UUID.randomUUID());
        long node = lease.acquire();
        sequence = new ReservationSequence(clock, node);
        LOG.info(() -> "reservation ids use node id " + node + " (leased for " + nodeLease.toSeconds() + " s, renewed)");
        renewals = Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().daemon(true)
                .name("node-lease").unstarted(r));
        long every = Math.max(1, nodeLease.toMillis() / 3);
        renewals.scheduleWithFixedDelay(this::renewLease, every, every, TimeUnit.MILLISECONDS);
    }

    /** Keeps the node id; a lost one is replaced by a new lease (new ids), never used again. */
    private synchronized void renewLease() {
        try {
            if (!lease.renew()) {
                long lost = lease.node();
                long node = lease.acquire();
                sequence = new ReservationSequence(clock, node);
                LOG.warning(() -> "node id lease " + lost + " was lost; reservation ids now use node id " + node);
            }
        } catch (RuntimeException e) {
            // the lease lapses by itself if this goes on; minting stops before it can
            LOG.warning(() -> "node id lease not renewed: " + e.getMessage());
        }
    }

    @PreDestroy
    void releaseLease() {
        if (renewals != null) {
            renewals.shutdownNow();
        }
        try {
            lease.release();
        } catch (RuntimeException e) {
            LOG.fine(() -> "node id lease not released (it lapses): " + e.getMessage());
        }
    }

    /** A fresh sequence number, only under a valid node id lease: an instance without one does not sell. */
    long nextSequence() {
        if (!lease.valid()) {
            throw new ReservationUnavailable("this instance holds no valid node id lease; not selling until it does",
                    null, false);
        }
        return sequence.next();
    }

    /**
     * Replaces the node id that minted {@code taken}, unless that was done already (every buyer of a
     * coalesced call may have met one): the instance never mints under it again.
     */
    synchronized void mintedElsewhere(ReservationId taken) {
        long node = ReservationSequence.nodeOf(taken.sequence());
        if (node != lease.node()) {
            return;
        }
        try {
            long fresh = lease.replace();
            sequence = new ReservationSequence(clock, fresh);
            nodeIdsReplaced.inc();
            LOG.warning(() -> "reservation id " + taken + " was minted in its bucket already: node id " + node
                    + " is another instance's too (lease keys lost in Redis); reservation ids now use node id " + fresh);
        } catch (JedisException | IllegalStateException e) {
            throw new ReservationUnavailable("replacing node id " + node + " failed", e, false);
        }
    }
}
