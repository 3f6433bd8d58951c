package seckill.reservation.redis;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.LockSupport;

import redis.clients.jedis.UnifiedJedis;
import seckill.reservation.api.ReservationOutcome;

/**
 * Request coalescing: concurrent reservations for the same bucket share script calls. A caller who
 * finds a free leader slot (a few per bucket) leads: when every slot is busy it waits at most
 * {@code maxWaitMicros} for company, then sends up to {@code maxBatch} claims in arrival order and
 * hands each waiting caller its own outcome. Followers only wait for their answer.
 */
public final class Coalescer {

    private record Pending(ReservationScript.Claim claim, CompletableFuture<ReservationOutcome> answer) {
    }

    private static final class Lane {
        final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();
        // a few calls may be in flight per bucket at once: one at a time would cap a lane at one round trip
        final Semaphore leaders = new Semaphore(LEADERS_PER_LANE);
    }

    private static final int LEADERS_PER_LANE = 4;

    private final ReservationScript script;
    private final UnifiedJedis redis;
    private final Clock clock;
    private final int maxBatch;
    private final long maxWaitMicros;
    private final Map<String, Lane> lanes = new ConcurrentHashMap<>();

    public Coalescer(ReservationScript script, UnifiedJedis redis, Clock clock, int maxBatch, long maxWaitMicros) {
        this.script = script;
        this.redis = redis;
        this.clock = clock;
        this.maxBatch = maxBatch;
        this.maxWaitMicros = maxWaitMicros;
    }

    public ReservationOutcome reserve(ReservationScript.Claim claim, long timeoutMillis) {
        String bucket = StockBuckets.tag(claim.candidate().activityId(), claim.candidate().skuId(),
                claim.candidate().bucket());
        Lane lane = lanes.computeIfAbsent(bucket, b -> new Lane());
        Pending mine = new Pending(claim, new CompletableFuture<>());
        lane.queue.add(mine);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (true) {
            if (mine.answer.isDone()) {
                return answer(mine);
            }
            if (lane.leaders.tryAcquire()) {
                boolean sent;
                try {
                    sent = lead(lane);
                } finally {
                    lane.leaders.release();
                }
                if (sent) {
                    continue;
                }
                // nothing left to send: my claim is in another leader's call; wait for it instead of spinning
            }
            try {
                // short waits, then look again: a leader may have finished just before this claim arrived
                return mine.answer.get(1, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("coalesced reservation timed out");
                }
            } catch (ExecutionException e) {
                throw unwrap(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private static ReservationOutcome answer(Pending pending) {
        try {
            return pending.answer.get();
        } catch (ExecutionException e) {
            throw unwrap(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Sends one batch; false when there was nothing to send. */
    private boolean lead(Lane lane) {
        if (maxWaitMicros > 0 && lane.queue.size() < maxBatch && lane.leaders.availablePermits() == 0) {
            // a short wait lets concurrent buyers join this call
            LockSupport.parkNanos(maxWaitMicros * 1_000);
        }
        List<Pending> batch = new ArrayList<>(maxBatch);
        Pending next;
        while (batch.size() < maxBatch && (next = lane.queue.poll()) != null) {
            batch.add(next);
        }
        if (batch.isEmpty()) {
            return false;
        }
        try {
            List<ReservationOutcome> outcomes = script.reserveMany(redis,
                    batch.stream().map(Pending::claim).toList(), clock.instant());
            for (int i = 0; i < batch.size(); i++) {
                batch.get(i).answer.complete(outcomes.get(i));
            }
        } catch (RuntimeException e) {
            batch.forEach(p -> p.answer.completeExceptionally(e));
        }
        return true;
    }

    private static RuntimeException unwrap(ExecutionException e) {
        return e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
    }
}
