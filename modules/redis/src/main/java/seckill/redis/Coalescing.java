package seckill.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiFunction;
import java.util.function.IntConsumer;

import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * Request coalescing ("smart batching"): concurrent calls for the same lane (one Redis slot) share
 * one round trip. A caller who finds one of the lane's few call slots free sends everything queued
 * for the lane, up to {@code maxBatch}, in arrival order, and hands each caller its own answer;
 * callers who find every slot busy wait, and their claims ride on the next call. So a batch holds
 * whatever arrived while the previous call was on the wire: one claim at low load (no added wait),
 * many under a burst. When {@code maxWaitMicros} is positive and the lane is under load (its last
 * call carried more than one claim and ended moments ago), a caller taking the lane's last free slot
 * waits up to that long for company first, and no longer than until the batch is full. Used by the
 * reservation script.
 *
 * @param <C> one caller's claim
 * @param <R> one caller's answer
 */
public final class Coalescing<C, R> {
    private static final Metadata CALLS = Metadata.builder().withName("seckill.coalescing.calls")
            .withDescription("Redis script calls sent by request coalescing, by path; seckill_coalescing_claims_total "
                    + "divided by this is the average batch.").build();
    private static final Metadata CLAIMS = Metadata.builder().withName("seckill.coalescing.claims")
            .withDescription("Buyers' claims carried by coalesced Redis script calls, by path; near "
                    + "seckill.redis.coalescing.max-batch per call means the lane is saturated.").build();

    /** A claim that never left this instance: nothing happened, retrying is safe. */
    public static final class NotSent extends RuntimeException {
        public NotSent(String message) {
            super(message);
        }
    }

    /** {@code deadline} in {@link System#nanoTime()}: still queued then, the claim is withdrawn. */
    private record Pending<C, R>(C claim, CompletableFuture<R> answer, long deadline) {
    }

    private final class Lane {
        final String name;
        final ConcurrentLinkedQueue<Pending<C, R>> queue = new ConcurrentLinkedQueue<>();
        final Semaphore calls = new Semaphore(callsPerLane);
        /** When the next deadline check of this lane's queue runs ({@link System#nanoTime()}); null: none. */
        final AtomicReference<Long> check = new AtomicReference<>();
        /** Claims the lane's last call carried: more than one means callers are arriving faster than calls return. */
        volatile int lastBatch;
        /** When the lane's last call ended and how long it took ({@link System#nanoTime()}, nanos). */
        volatile long lastEnded;
        volatile long lastTook;
        /** The sender waiting for company, woken when the batch is full; null: none. */
        volatile Thread waiting;

        Lane(String name) {
            this.name = name;
        }
    }

    // Deadlines are watched per lane, by one timer thread for every lane, not by each waiter: a timed
    // wait parks a virtual thread with a timer task scheduled and cancelled per purchase. It was 5.3 %
    // of the paced purchase path's samples, and waiters parking untimed made that path about a
    // quarter faster and admitted buyers' p99 at 64 connections 97.5 -> 20.8 ms (docs/perf/README.md).
    private static final ScheduledExecutorService DEADLINES = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon(true).name("coalescing deadlines").factory());

    private static final String PAST_DEADLINE = "coalesced call not sent within its timeout";

    private final BiFunction<String, List<C>, List<R>> batchCall;
    private final int maxBatch;
    private final long maxWaitNanos;
    private final int callsPerLane;
    // one lane per bucket ever seen would grow with every sale; idle ones are dropped past this many
    static final int IDLE_LANES_KEPT = 4096;

    private final Map<String, Lane> lanes = new ConcurrentHashMap<>();
    private volatile IntConsumer onCall = size -> { };

    /**
     * @param batchCall     sends one lane's claims in one call and returns one answer per claim, in order
     * @param maxBatch      most claims in one call
     * @param maxWaitMicros wait for company before taking a lane's last free slot (0: never wait)
     * @param callsPerLane  calls one lane may have on the wire at once
     */
    public Coalescing(BiFunction<String, List<C>, List<R>> batchCall, int maxBatch, long maxWaitMicros,
                      int callsPerLane) {
        this.batchCall = batchCall;
        this.maxBatch = Math.max(1, maxBatch);
        this.maxWaitNanos = TimeUnit.MICROSECONDS.toNanos(Math.max(0, maxWaitMicros));
        this.callsPerLane = Math.max(1, callsPerLane);
    }

    /**
     * Counts the calls sent and the claims they carried as {@code seckill.coalescing.calls} and
     * {@code seckill.coalescing.claims} tagged {@code path}: claims ÷ calls is the average batch.
     */
    public void countIn(MetricRegistry metrics, String path) {
        Counter calls = metrics.counter(CALLS, new Tag("path", path));
        Counter claims = metrics.counter(CLAIMS, new Tag("path", path));
        onCall = size -> {
            calls.inc();
            claims.inc(size);
        };
    }

    /**
     * Sends {@code claim} with whatever else is queued for {@code lane} and returns its answer. A
     * failure of the shared call is thrown to every caller in it. {@link NotSent} when the claim
     * was still queued after {@code timeoutMillis}.
     */
    public R submit(String lane, C claim, long timeoutMillis) {
        Lane mine = lanes.computeIfAbsent(lane, Lane::new);
        Pending<C, R> pending = new Pending<>(claim, new CompletableFuture<>(),
                System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
        mine.queue.add(pending);
        Thread waiting = mine.waiting;
        if (waiting != null && mine.queue.size() >= maxBatch) {
            LockSupport.unpark(waiting);
        }
        watch(mine, pending.deadline);
        while (!pending.answer.isDone()) {
            if (mine.calls.tryAcquire()) {
                try {
                    sendOnce(mine);
                } finally {
                    mine.calls.release();
                }
            } else {
                await(mine, pending);
            }
        }
        // every slot holder looks at the queue on its way out, so a claim queued while all slots
        // were busy is never stranded; the leftovers go to a sender of their own, never on this
        // caller's time (under a steady stream it would never get back to its own buyer)
        handOff(mine);
        if (lanes.size() > IDLE_LANES_KEPT) {
            dropIdleLanes();
        }
        return answer(pending);
    }

    private void handOff(Lane lane) {
        if (lane.queue.isEmpty() || !lane.calls.tryAcquire()) {
            return;
        }
        Thread.ofVirtual().name("coalescing " + lane.name).start(() -> {
            do {
                try {
                    while (!lane.queue.isEmpty()) {
                        sendOnce(lane);
                    }
                } finally {
                    lane.calls.release();
                }
            } while (!lane.queue.isEmpty() && lane.calls.tryAcquire());
        });
    }

    /**
     * Forgets lanes with nothing queued and nothing on the wire. A caller still holding a dropped
     * lane drives it to the end on its own (it sends its own claim), and a newcomer gets a fresh
     * lane; two lanes for one slot for a moment only means two calls, each atomic in Redis.
     */
    private void dropIdleLanes() {
        lanes.values().removeIf(lane -> lane.queue.isEmpty() && lane.calls.availablePermits() == callsPerLane);
    }

    int laneCount() {
        return lanes.size();
    }

    /** Claims queued on {@code lane} and not yet sent (0 for a lane never seen). */
    int queued(String lane) {
        Lane known = lanes.get(lane);
        return known == null ? 0 : known.queue.size();
    }

    /**
     * Waits for the answer, untimed: a claim still queued at its deadline is withdrawn by its lane's
     * watch ({@link #watch}), and a claim already on the wire is waited for without a deadline: its
     * call ends within the Redis client's own socket timeout.
     */
    private void await(Lane lane, Pending<C, R> pending) {
        try {
            pending.answer.get();
        } catch (ExecutionException e) {
            // the caller reads it from the future
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (!withdraw(lane, pending, "interrupted before sending")) {
                // on the wire: its answer comes with the call; the caller stops waiting for it
                pending.answer.completeExceptionally(e);
            }
        }
    }

    /** Makes sure a check of the lane's queue runs by {@code deadline}: under load one is always due sooner. */
    private void watch(Lane lane, long deadline) {
        while (true) {
            Long due = lane.check.get();
            if (due != null && due - deadline <= 0) {
                return;
            }
            Long at = deadline;
            if (lane.check.compareAndSet(due, at)) {
                DEADLINES.schedule(() -> sweep(lane, at), Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                return;
            }
        }
    }

    /**
     * Withdraws the lane's claims past their deadline and watches for the earliest one left. This
     * check is marked done first, so a claim queued meanwhile schedules its own if none is due.
     */
    private void sweep(Lane lane, Long at) {
        lane.check.compareAndSet(at, null);
        long now = System.nanoTime();
        Pending<C, R> earliest = null;
        for (Pending<C, R> pending : lane.queue) {
            if (pending.deadline - now <= 0) {
                withdraw(lane, pending, PAST_DEADLINE);
            } else if (earliest == null || pending.deadline - earliest.deadline < 0) {
                earliest = pending;
            }
        }
        if (earliest != null) {
            watch(lane, earliest.deadline);
        }
    }

    private boolean withdraw(Lane lane, Pending<C, R> pending, String why) {
        if (lane.queue.remove(pending)) {
            pending.answer.completeExceptionally(new NotSent(why));
            return true;
        }
        return false;
    }

    private void sendOnce(Lane lane) {
        // a wait for company only under load: there it makes batches larger, and Redis' fixed cost of
        // a call is shared by more buyers (issue #35, bench/redis-cpu.sh: with 500 µs and max-batch 64,
        // 15 -> 41 buyers a call at 64 connections, 16.9 -> 11.5 µs of Redis CPU a reservation); a
        // lone caller on a quiet lane is sent at once, so low load pays no latency for it
        if (maxWaitNanos > 0 && lane.calls.availablePermits() == 0 && lane.queue.size() < maxBatch
                && underLoad(lane, System.nanoTime())) {
            waitForCompany(lane);
        }
        List<Pending<C, R>> batch = new ArrayList<>(Math.min(maxBatch, 64));
        Pending<C, R> next;
        long now = System.nanoTime();
        while (batch.size() < maxBatch && (next = lane.queue.poll()) != null) {
            if (next.deadline - now <= 0) {
                // past its deadline while this sender waited: withdrawn here too, so a late timer
                // (one thread for every lane) never lets it ride on a call after its caller gave up
                next.answer.completeExceptionally(new NotSent(PAST_DEADLINE));
            } else {
                batch.add(next);
            }
        }
        if (batch.isEmpty()) {
            return;
        }
        lane.lastBatch = batch.size();
        List<C> claims = new ArrayList<>(batch.size());
        batch.forEach(p -> claims.add(p.claim));
        onCall.accept(claims.size());
        long sent = System.nanoTime();
        try {
            List<R> answers = batchCall.apply(lane.name, claims);
            for (int i = 0; i < batch.size(); i++) {
                batch.get(i).answer.complete(answers.get(i));
            }
        } catch (Throwable e) {
            // every waiter gets an answer, whatever went wrong (one already answered keeps its own);
            // nothing is rethrown here, so this sender still hands the queue on to the next one
            batch.forEach(p -> p.answer.completeExceptionally(e));
        } finally {
            long ended = System.nanoTime();
            lane.lastTook = ended - sent;
            lane.lastEnded = ended;
        }
    }

    /**
     * Under load: the lane's last call carried company and ended within two waits (or two of its
     * own round trips, if longer) of now. A flag that never aged kept the first lone caller after a
     * burst waiting for company that had long gone (the hostile review of issue #35's eighth step).
     */
    private boolean underLoad(Lane lane, long now) {
        long memory = 2 * Math.max(lane.lastTook, maxWaitNanos);
        return lane.lastBatch > 1 && now - lane.lastEnded <= memory;
    }

    /** Parks until the wait is over or the batch is full ({@link #submit} wakes this sender then). */
    private void waitForCompany(Lane lane) {
        long until = System.nanoTime() + maxWaitNanos;
        lane.waiting = Thread.currentThread();
        try {
            long left;
            while (lane.queue.size() < maxBatch && (left = until - System.nanoTime()) > 0
                    && !Thread.currentThread().isInterrupted()) {
                LockSupport.parkNanos(left);
            }
        } finally {
            lane.waiting = null;
        }
    }

    private R answer(Pending<C, R> pending) {
        try {
            return pending.answer.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
