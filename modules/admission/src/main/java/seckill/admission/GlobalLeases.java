package seckill.admission;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import redis.clients.jedis.UnifiedJedis;
import seckill.admission.rules.SecondBudget;
import seckill.redis.RedisScript;
import seckill.redis.SlotSpread;

/**
 * The global attempts-per-second limit, decided in memory from leases of the budget: an attempt
 * takes a token of this instance's lease ({@link SecondBudget}); when the lease is empty one call
 * ({@code lease.lua}) asks Redis for a tenth of the rate more, and when Redis says the second is
 * spent, the rest of that second's excess is refused here without any Redis call. All instances
 * lease from the same counter, so together they never admit more than the rate; a lease one
 * instance does not use up by the end of its second is lost, so under uneven load they may admit
 * a little less.
 */
final class GlobalLeases {

    private final UnifiedJedis redis;
    private final Clock clock;
    private final RedisScript script = RedisScript.read(GlobalLeases.class.getResourceAsStream("lease.lua"), "lease.lua");
    private final Cache<Long, ActivityBudget> budgets = Caffeine.newBuilder()
            .expireAfterAccess(Duration.ofMinutes(10)).maximumSize(10_000).build();
    private final String instance;
    private final AtomicLong leases = new AtomicLong();
    private final int partitions;
    // every lease call asks for its activity's tag: computed once per activity
    private final Cache<Long, String> tags = Caffeine.newBuilder().maximumSize(10_000).build();

    /** {@code partitions}: the rate-limit partitions the activity's keys are spread over; leases use the first. */
    GlobalLeases(UnifiedJedis redis, Clock clock, int partitions, String instance) {
        this.redis = redis;
        this.clock = clock;
        this.partitions = Math.max(1, partitions);
        this.instance = instance;
    }

    /** The hash tag the activity's lease counter lives under (its first rate-limit partition's). */
    String tag(long activityId) {
        return tags.get(activityId, id -> "{" + SlotSpread.tag("rl:a" + id + ":p0", 0, partitions) + "}");
    }

    /**
     * Whether an attempt on the activity is within the global rate. Throws what Redis throws when a
     * lease cannot be had.
     */
    boolean admit(long activityId, long perSecond) {
        long now = clock.millis();
        ActivityBudget activity = budgets.get(activityId, id -> new ActivityBudget(new SecondBudget(), new ReentrantLock()));
        SecondBudget budget = activity.budget();
        SecondBudget.Take take = budget.take(now);
        if (take == SecondBudget.Take.TAKEN) {
            topUpWhenLow(activityId, activity, now, perSecond);
            return true;
        }
        if (take == SecondBudget.Take.SPENT) {
            return false;
        }
        // one lease call per activity at a time: the attempts behind it take from what it brings
        activity.leasing().lock();
        try {
            take = budget.take(now);
            if (take != SecondBudget.Take.LEASE) {
                return take == SecondBudget.Take.TAKEN;
            }
            lease(activityId, budget, now, perSecond);
            return budget.take(now) == SecondBudget.Take.TAKEN;
        } finally {
            activity.leasing().unlock();
        }
    }

    /**
     * Leases the next chunk while half of this one is still left, by the one attempt that finds the
     * lease lock free. Waiting for an empty lease made every attempt of that moment queue behind the
     * lease call; at 1,000 connections that queueing was a tenth of the CPU (docs/perf/README.md).
     * A failed top-up is left to the attempt that finds the lease empty, which reports it.
     */
    private void topUpWhenLow(long activityId, ActivityBudget activity, long now, long perSecond) {
        if (!activity.budget().runningLow(now, SecondBudget.chunk(perSecond)) || !activity.leasing().tryLock()) {
            return;
        }
        try {
            if (activity.budget().runningLow(now, SecondBudget.chunk(perSecond))) {
                lease(activityId, activity.budget(), now, perSecond);
            }
        } catch (RuntimeException redisTrouble) {
            // this attempt already holds a token; the next one to find the lease empty asks again
        } finally {
            activity.leasing().unlock();
        }
    }

    private void lease(long activityId, SecondBudget budget, long now, long perSecond) {
        long second = now / 1000;
        Object granted = script.run(redis, List.of(seckill.redis.World.of(activityId).key(tag(activityId) + ":gl" + second)),
                List.of(Long.toString(SecondBudget.chunk(perSecond)), Long.toString(perSecond),
                        instance + ":" + leases.incrementAndGet()));
        budget.leased(second, ((Number) granted).longValue());
    }

    /** An attempt that took a token but was refused by the buyer's own limit gives it back. */
    void giveBack(long activityId) {
        ActivityBudget activity = budgets.getIfPresent(activityId);
        if (activity != null) {
            activity.budget().giveBack(clock.millis());
        }
    }

    /** An activity's budget in this instance and the lock that lets one lease call run at a time. */
    private record ActivityBudget(SecondBudget budget, ReentrantLock leasing) {
    }

    /** Milliseconds until the next second, when a spent budget is renewed. */
    long millisToNextSecond() {
        return 1000 - clock.millis() % 1000;
    }
}
