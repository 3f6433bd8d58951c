package seckill.reservation;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.MetricRegistry;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;
import seckill.redis.Coalescing;
import seckill.redis.CoalescingSettings;
import seckill.redis.RedisFailures;
import seckill.redis.ReplicaAcks;
import seckill.redis.World;
import seckill.reservation.api.ReplicasMissing;
import seckill.reservation.api.Replicas;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.ReservationOutcome;
import seckill.reservation.api.ReservationUnavailable;
import seckill.reservation.api.ReserveStock;
import seckill.reservation.api.Reserving;
import seckill.reservation.redis.BucketScripts;
import seckill.reservation.redis.ReservationScript;
import seckill.reservation.redis.StockBuckets;
import seckill.reservation.rules.DonorBuckets;

/**
 * The purchase path's use case: one buyer, one atomic script call against the buyer's home bucket
 * (batched with other buyers of the same bucket when coalescing is on), and the donor buckets'
 * protocol when the home bucket ran dry. Redis errors become {@link ReservationUnavailable}: the
 * caller must treat the outcome as unknown.
 */
@HotPathSingleton
class ReservingStock implements Reserving {

    private final ReservationScript reservationScript = new ReservationScript();
    private final BucketScripts bucketScripts = new BucketScripts();

    private final UnifiedJedis redis;
    private final Clock clock;
    private final LeasingNodeIds nodeIds;
    private final long timeoutMillis;
    private final CoalescingSettings batching;
    private final ReservationSettings settings;
    private final Coalescing<Claimed, ReservationOutcome> coalescer;

    /** One buyer's claim on a bucket, with the keys of its SKU (every claim of a lane shares them). */
    private record Claimed(StockBuckets buckets, ReservationScript.Claim claim) {
    }

    @Inject
    ReservingStock(UnifiedJedis redis, Clock clock, MetricRegistry metrics, ReservationSettings settings,
                   LeasingNodeIds nodeIds) {
        this.redis = redis;
        this.clock = clock;
        this.nodeIds = nodeIds;
        this.timeoutMillis = settings.timeoutMillis();
        this.batching = settings.coalescing();
        this.settings = settings;
        this.coalescer = new Coalescing<>((lane, claims) -> reservationScript.reserveMany(redis,
                claims.getFirst().buckets(), claims.stream().map(Claimed::claim).toList(), clock.instant(),
                settings.acks(), settings.packedEvents(), settings.oneEntryPerCall()), batching.maxBatch(), batching.maxWaitMicros(), batching.callsPerLane());
        coalescer.countIn(metrics, "reservation");
    }

    @Override
    public ReservationOutcome reserve(ReserveStock command) {
        try {
            ReservationOutcome outcome = reserveSomewhere(command, true);
            if (outcome instanceof ReservationOutcome.IdTaken taken && World.of(command.activityId()) == World.REHEARSAL) {
                // a rehearsal writes no sk: key (docs/rehearsal.md): replacing the node id would write sk:node-seq
                // and sk:node:<n>. Nothing was taken; the buyer asks again (503 BUSY), and the next collision of
                // a real sale replaces the node id
                throw new ReservationUnavailable("reservation id " + taken.id() + " was minted in its rehearsal bucket "
                        + "already; nothing was reserved, the node id is kept", null, false);
            }
            if (outcome instanceof ReservationOutcome.IdTaken taken) {
                // the bucket gave a unit under this id already: this node id is another instance's too (Redis
                // lost the lease keys). Nothing was taken; under a new node id, the buyer once more
                nodeIds.mintedElsewhere(taken.id());
                outcome = reserveSomewhere(command, true);
                if (outcome instanceof ReservationOutcome.IdTaken again) {
                    nodeIds.mintedElsewhere(again.id());
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
        ReservationId candidate = new ReservationId(command.activityId(), command.skuId(), bucket, nodeIds.nextSequence());
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
}
