package seckill.reservation;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;
import seckill.reservation.api.PreheatStock;
import seckill.reservation.api.ReplicasMissing;
import seckill.reservation.api.Replicas;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.ReservationOutcome;
import seckill.reservation.api.ReservationUnavailable;
import seckill.reservation.api.ReserveStock;
import seckill.reservation.api.StockReservations;
import seckill.reservation.api.Restock;
import seckill.reservation.api.RestoreStock;
import seckill.reservation.api.RestockOutcome;
import seckill.redis.Coalescing;
import seckill.redis.CoalescingSettings;
import seckill.redis.RedisFailures;
import seckill.redis.ReplicaAcks;
import seckill.reservation.redis.BucketScripts;
import seckill.reservation.rules.DonorBuckets;
import seckill.reservation.redis.PreheatScript;
import seckill.reservation.redis.NodeLease;
import seckill.reservation.redis.RefillScript;
import seckill.reservation.redis.RestoreScript;
import seckill.reservation.redis.ReservationScript;
import seckill.reservation.redis.ReservationSequence;
import seckill.reservation.redis.StockBuckets;

/**
 * The purchase path's use case: one buyer, one atomic script call against the buyer's home bucket.
 * Redis errors become {@link ReservationUnavailable}: the caller must treat the outcome as unknown.
 */
@HotPathSingleton
class ReservingStock implements StockReservations {
    private static final Metadata NODE_IDS_REPLACED = Metadata.builder().withName("seckill.reservation.node-ids-replaced")
            .withDescription("Times this instance replaced its node id because a reservation id it minted already "
                    + "existed in its bucket (another instance held the same node id: lease keys lost in "
                    + "Redis).").build();

    private static final Logger LOG = Logger.getLogger(ReservingStock.class.getName());

    private final ReservationScript reservationScript = new ReservationScript();
    private final PreheatScript preheatScript = new PreheatScript();
    private final RefillScript refillScript = new RefillScript();
    private final BucketScripts bucketScripts = new BucketScripts();
    private final RestoreScript restoreScript = new RestoreScript();

    private final UnifiedJedis redis;
    private final Clock clock;
    private final MetricRegistry metrics;
    private final String consumerGroup;
    private final long timeoutMillis;
    /** How long a node id lease lasts without renewal; renewed every third of it. */
    private final Duration nodeLease;
    private final CoalescingSettings batching;
    private final ReservationSettings settings;

    @Inject
    ReservingStock(UnifiedJedis redis, Clock clock, MetricRegistry metrics, ReservationSettings settings) {
        this.redis = redis;
        this.clock = clock;
        this.metrics = metrics;
        this.consumerGroup = settings.consumerGroup();
        this.timeoutMillis = settings.timeoutMillis();
        this.nodeLease = settings.nodeLease();
        this.batching = settings.coalescing();
        this.settings = settings;
    }

    private volatile ReservationSequence sequence;
    private NodeLease lease;
    private ScheduledExecutorService renewals;
    private Coalescing<Claimed, ReservationOutcome> coalescer;
    private Counter nodeIdsReplaced;

    /** One buyer's claim on a bucket, with the keys of its SKU (every claim of a lane shares them). */
    private record Claimed(StockBuckets buckets, ReservationScript.Claim claim) {
    }

    @PostConstruct
    void leaseNodeId() {
        coalescer = new Coalescing<>((lane, claims) -> reservationScript.reserveMany(redis, claims.getFirst().buckets(),
                claims.stream().map(Claimed::claim).toList(), clock.instant(), settings.acks()),
                batching.maxBatch(), batching.maxWaitMicros(), batching.callsPerLane());
        coalescer.countIn(metrics, "reservation");
        // registered now, so the series (and its help) exists before the rare event it counts
        nodeIdsReplaced = metrics.counter(NODE_IDS_REPLACED);
        lease = new NodeLease(redis, clock, nodeLease,
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
    private long nextSequence() {
        if (!lease.valid()) {
            throw new ReservationUnavailable("this instance holds no valid node id lease; not selling until it does",
                    null, false);
        }
        return sequence.next();
    }

    @Override
    public void preheat(PreheatStock command) {
        StockBuckets keys = StockBuckets.of(command.activityId(), command.skuId(), command.buckets());
        // unique across instances; the same for a client's retry of one script call
        long preheatId = nextSequence();
        try {
            for (int bucket = 0; bucket < command.buckets(); bucket++) {
                preheatScript.preheat(redis, keys, bucket, PreheatStock.share(command.stock(), command.buckets(), bucket),
                        consumerGroup, command.keysExpireAt(), preheatId);
            }
        } catch (JedisException e) {
            throw new ReservationUnavailable("preheat failed", e);
        }
    }

    @Override
    public List<RestoreStock.Outcome> restore(RestoreStock command) {
        StockBuckets keys = StockBuckets.of(command.activityId(), command.skuId(), command.buckets());
        long restoreId = nextSequence();
        List<RestoreStock.Outcome> outcomes = new java.util.ArrayList<>(command.buckets());
        try {
            for (int bucket = 0; bucket < command.buckets(); bucket++) {
                int b = bucket;
                RestoreStock.BucketLedger ledger = command.ledger().stream().filter(l -> l.bucket() == b).findFirst()
                        .orElse(new RestoreStock.BucketLedger(b, 0, 0, 0));
                long remaining = PreheatStock.share(command.stock(), command.buckets(), b) - ledger.takenUnits()
                        + ledger.refilledUnits();
                // a buyer's record lives in their home bucket, wherever their unit came from
                List<RestoreStock.Holder> atHome = command.holders().stream()
                        .filter(h -> StockBuckets.homeBucket(h.userId(), command.buckets()) == b).toList();
                outcomes.add(restoreScript.restore(redis, keys, b, remaining, ledger.refilledUnits(), ledger.refilled(),
                        ledger.lastEvent(), atHome, consumerGroup, command.keysExpireAt(), restoreId));
            }
        } catch (JedisException e) {
            throw new ReservationUnavailable("restore failed", e);
        }
        return outcomes;
    }

    @Override
    public ReservationOutcome reserve(ReserveStock command) {
        try {
            ReservationOutcome outcome = reserveSomewhere(command, true);
            if (outcome instanceof ReservationOutcome.IdTaken taken) {
                // the bucket gave a unit under this id already: this node id is another instance's too (Redis
                // lost the lease keys). Nothing was taken; under a new node id, the buyer once more
                leaseLost(taken.id());
                outcome = reserveSomewhere(command, true);
                if (outcome instanceof ReservationOutcome.IdTaken again) {
                    leaseLost(again.id());
                    throw new ReservationUnavailable("reservation id " + again.id() + " was minted twice; nothing was "
                            + "reserved", null, false);
                }
            }
            return outcome;
        } catch (ReservationUnavailable e) {
            throw replicasMissing(e);
        }
    }

    /**
     * Replaces the node id that minted {@code taken}, unless that was done already (every buyer of a
     * coalesced call may have met one): the instance never mints under it again.
     */
    private synchronized void leaseLost(ReservationId taken) {
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

    /**
     * An unacknowledged reservation (at home or from a donor) because the master has fewer replicas
     * online than required is told apart from a slow replica: the caller halts saying what is
     * missing, and does not resume to meet the same wall again. Anything else stays as it was.
     */
    private ReservationUnavailable replicasMissing(ReservationUnavailable e) {
        if (e instanceof ReplicasMissing || !unacknowledged(e)) {
            return e;
        }
        try {
            Replicas now = CountingReplicas.count(redis, settings.acks());
            return now.enough() ? e : new ReplicasMissing(now, e);
        } catch (RuntimeException notCounted) {
            e.addSuppressed(notCounted);
            return e;
        }
    }

    private static boolean unacknowledged(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ReplicaAcks.Missing) {
                return true;
            }
        }
        return false;
    }

    private ReservationOutcome reserveSomewhere(ReserveStock command, boolean mayResume) {
        int bucket = StockBuckets.homeBucket(command.userId(), command.buckets());
        StockBuckets keys = StockBuckets.of(command.activityId(), command.skuId(), command.buckets());
        ReservationId candidate = new ReservationId(command.activityId(), command.skuId(), bucket, nextSequence());
        ReservationOutcome atHome = reserveAtHome(command, keys, candidate);
        if (command.buckets() == 1) {
            return atHome;
        }
        return switch (atHome) {
            case ReservationOutcome.SoldOut s -> reserveFromDonors(command, keys, candidate, atHome);
            case ReservationOutcome.InsufficientStock i -> reserveFromDonors(command, keys, candidate, atHome);
            case ReservationOutcome.InProgress p when mayResume -> resumeOwnClaim(command, keys, bucket).orElse(atHome);
            // one bucket's count says nothing about the others
            case ReservationOutcome.Reserved r -> new ReservationOutcome.Reserved(r.id(), r.remaining(), false);
            default -> atHome;
        };
    }

    /**
     * The buyer's home record is a pending claim. If it is this very request's (an earlier attempt
     * whose take from a donor was in doubt), it is settled: the unit it got, or, with the claim
     * removed, a fresh try. Another request's claim is someone's purchase in progress: empty.
     */
    private Optional<ReservationOutcome> resumeOwnClaim(ReserveStock command, StockBuckets keys, int home) {
        String held;
        try {
            held = redis.hget(keys.buyers(home), Long.toString(command.userId()));
        } catch (JedisException e) {
            throw new ReservationUnavailable("reading buyer failed", e);
        }
        if (!DonorBuckets.pendingOf(held, command.requestId())) {
            return Optional.empty();
        }
        Optional<ReservationOutcome> found = donors(keys).resume(command, home, held);
        if (found.isPresent()) {
            return found;
        }
        // once: a claim of this request found again is left for the next retry, never looped on here
        return Optional.of(reserveSomewhere(command, false));
    }

    /** The home bucket ran dry: the cross-bucket protocol, its steps run on this SKU's keys. */
    private ReservationOutcome reserveFromDonors(ReserveStock command, StockBuckets keys, ReservationId homeCandidate,
                                                 ReservationOutcome atHome) {
        return donors(keys).reserve(command, homeCandidate, atHome, clock.instant());
    }

    private DonorBuckets donors(StockBuckets keys) {
        DonorBuckets.Steps steps = new DonorBuckets.Steps() {
            @Override
            public String claim(int home, long userId, String pendingValue) {
                return bucketScripts.claim(redis, keys, home, userId, pendingValue);
            }

            @Override
            public List<String> take(ReservationId id, long userId, int quantity, String requestId, Instant reservedAt) {
                return bucketScripts.take(redis, keys, id, userId, quantity, requestId, reservedAt, settings.acks());
            }

            @Override
            public void settle(int home, long userId, String expected, String replacement) {
                bucketScripts.settle(redis, keys, home, userId, expected, replacement);
            }

            @Override
            public String withdraw(ReservationId id, long userId) {
                return bucketScripts.withdraw(redis, keys, id, userId, settings.acks());
            }
        };
        return new DonorBuckets(steps);
    }

    private ReservationOutcome reserveAtHome(ReserveStock command, StockBuckets keys, ReservationId candidate) {
        try {
            if (batching.enabled()) {
                return coalescer.submit(keys.tag(candidate.bucket()), new Claimed(keys, new ReservationScript.Claim(
                        candidate, command.userId(), command.quantity(), command.requestId(), command.window())),
                        timeoutMillis);
            }
            return reservationScript.reserve(redis, keys, candidate, command.userId(), command.quantity(),
                    command.requestId(), clock.instant(), settings.acks(), command.window());
        } catch (Coalescing.NotSent e) {
            throw new ReservationUnavailable("reservation not sent", e, false);
        } catch (ReplicaAcks.Missing e) {
            // reserved on this master, but not yet safe from its loss: in doubt, never a 202
            throw new ReservationUnavailable("reservation not acknowledged by a replica", e, true);
        } catch (JedisException | IllegalStateException e) {
            throw new ReservationUnavailable("reservation script failed", e, !RedisFailures.poolExhausted(e));
        }
    }

    @Override
    public Optional<Long> remaining(long activityId, long skuId, int buckets) {
        try {
            long sum = 0;
            boolean any = false;
            StockBuckets keys = StockBuckets.of(activityId, skuId, buckets);
            for (int bucket = 0; bucket < keys.count(); bucket++) {
                String value = redis.get(keys.stock(bucket));
                if (value != null) {
                    any = true;
                    sum += Math.max(0, Long.parseLong(value));
                }
            }
            return any ? Optional.of(sum) : Optional.empty();
        } catch (JedisException e) {
            throw new ReservationUnavailable("reading stock failed", e);
        }
    }

    @Override
    public Optional<List<Long>> remainingByBucket(long activityId, long skuId, int buckets) {
        try {
            StockBuckets keys = StockBuckets.of(activityId, skuId, buckets);
            List<Long> all = new java.util.ArrayList<>(keys.count());
            for (int bucket = 0; bucket < keys.count(); bucket++) {
                String value = redis.get(keys.stock(bucket));
                if (value == null) {
                    return Optional.empty();
                }
                all.add(Long.parseLong(value));
            }
            return Optional.of(all);
        } catch (JedisException e) {
            throw new ReservationUnavailable("reading stock failed", e);
        }
    }

    @Override
    public RestockOutcome restock(Restock command) {
        ReservationId id = command.reservation();
        int home = StockBuckets.homeBucket(command.userId(), Math.max(1, command.buckets()));
        StockBuckets keys = StockBuckets.of(id.activityId(), id.skuId(), Math.max(1, command.buckets()));
        // the hot switch read once per refill: the refill and its buyer's release wait for the same replicas
        ReplicaAcks acks = settings.acks();
        try {
            boolean sameBucket = home == id.bucket();
            // under the reservations' acknowledgement rule: a refill only this master holds is not applied yet
            RestockOutcome outcome = refillScript.refill(redis, keys, id, command.userId(), command.quantity(),
                    command.releaseBuyer() && sameBucket, acks);
            if (command.releaseBuyer() && !sameBucket && outcome != RestockOutcome.KEYS_GONE) {
                // the buyer's record lives in their home bucket, another slot: released on its own, idempotently
                if (!bucketScripts.settle(redis, keys, home, command.userId(), id.toString(), "", acks)) {
                    // the take's answer was lost, so the claim still points at no id; this is its unit
                    // (same sequence), so the claim is done with: the buyer may buy again
                    String held = redis.hget(keys.buyers(home), Long.toString(command.userId()));
                    if (DonorBuckets.pendingSequence(held).filter(s -> s == id.sequence()).isPresent()) {
                        bucketScripts.settle(redis, keys, home, command.userId(), held, "", acks);
                    }
                }
            }
            return outcome;
        } catch (ReplicaAcks.Missing e) {
            // applied on this master, not yet safe from its loss: the caller keeps the refill pending and repeats it
            throw new ReservationUnavailable("refill not acknowledged by a replica", e, true);
        } catch (JedisException | IllegalStateException e) {
            throw new ReservationUnavailable("restock failed", e);
        }
    }

    @Override
    public Optional<ReservationId> heldFor(long activityId, long skuId, int buckets, long userId) {
        try {
            int home = StockBuckets.homeBucket(userId, Math.max(1, buckets));
            String held = redis.hget(StockBuckets.of(activityId, skuId, buckets).buyers(home), Long.toString(userId));
            // a pending claim (or nothing) parses to empty: the buyer holds nothing they could be shown yet
            return held == null ? Optional.empty() : ReservationId.parse(held);
        } catch (JedisException e) {
            throw new ReservationUnavailable("reading buyer failed", e);
        }
    }

    @Override
    public boolean isHeldBy(ReservationId id, long userId, int buckets) {
        try {
            int home = StockBuckets.homeBucket(userId, Math.max(1, buckets));
            String held = redis.hget(StockBuckets.of(id.activityId(), id.skuId(), buckets).buyers(home), Long.toString(userId));
            return id.toString().equals(held);
        } catch (JedisException e) {
            throw new ReservationUnavailable("reading buyer failed", e);
        }
    }
}
