package seckill.queue;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.inject.Inject;
import redis.clients.jedis.UnifiedJedis;
import seckill.queue.api.LineUnavailable;
import seckill.redis.RedisScript;

/**
 * Marks a pass used once its purchase reserved ({@code use.lua}, not waited for), freeing its room in the line for
 * the next buyer at once. A mark Redis did not answer (no connection free in time under load, a reset) is kept here
 * and made again by this instance's next tick of that line ({@link AdmittingFromTheLine}) before the tick counts the
 * passes out. Left to the pass's expiry, the unit that purchase took was counted twice (gone from the units left and
 * still held by its pass), so the line's last units were called nobody, and the line not closed, for the rest of
 * the pass's lifetime (30 s by default): issue #33's benchmark, 40 s until every buyer knew.
 */
@QueueBean
class MarkingPassesUsed {

    private static final Logger LOG = Logger.getLogger(MarkingPassesUsed.class.getName());

    private final RedisScript script = LineCalls.alone("use.lua");
    private final LineCalls calls;
    private final Clock clock;
    private final LineFigures figures;
    /** How long a mark is tried again: past the pass's expiry too (the buyer then reads USED, not EXPIRED). */
    private final long keepMillis;
    /** Marks Redis did not answer, per activity: buyer → when it was first tried (ms). */
    private final Map<Long, Map<Long, Long>> unrecorded = new ConcurrentHashMap<>();

    @Inject
    MarkingPassesUsed(UnifiedJedis redis, Clock clock, QueueSettings settings, LineFigures figures) {
        this.calls = new LineCalls(redis, () -> seckill.redis.ReplicaAcks.NONE);
        this.clock = clock;
        this.figures = figures;
        this.keepMillis = settings.passSeconds() * 1000 + 60_000;
    }

    /** The buyer's pass bought: marked used now, or by the next tick if Redis does not answer. */
    void mark(long activityId, long buyerId) {
        try {
            run(activityId, buyerId);
        } catch (LineUnavailable e) {
            long at = clock.millis();
            // (added inside compute: markAgain drops an emptied map the same way, so no mark lands in a dropped one)
            unrecorded.compute(activityId, (id, marks) -> {
                Map<Long, Long> kept = marks == null ? new ConcurrentHashMap<>() : marks;
                kept.putIfAbsent(buyerId, at);
                return kept;
            });
            LOG.log(Level.FINE, "pass use not recorded; the next tick records it", e);
        }
    }

    /** Makes again the marks of this line Redis did not answer; stops at the first it still does not answer. */
    void markAgain(long activityId) {
        Map<Long, Long> pending = unrecorded.get(activityId);
        if (pending == null) {
            return;
        }
        long now = clock.millis();
        try {
            for (Map.Entry<Long, Long> mark : pending.entrySet()) {
                if (now - mark.getValue() <= keepMillis) {
                    run(activityId, mark.getKey());
                }
                pending.remove(mark.getKey(), mark.getValue());
            }
        } catch (LineUnavailable e) {
            LOG.log(Level.FINE, "pass uses not recorded yet; tried again at the next tick", e);
        }
        unrecorded.computeIfPresent(activityId, (id, marks) -> marks.isEmpty() ? null : marks);
    }

    /** Marks waiting to be made again (all lines). */
    int unrecorded() {
        return unrecorded.values().stream().mapToInt(Map::size).sum();
    }

    private void run(long activityId, long buyerId) {
        Object first = calls.read(script, new LineKeys(activityId).using(), List.of(Long.toString(buyerId)));
        if (first instanceof Number n && n.longValue() == 1) {
            figures.passUsed(activityId);
        }
    }
}
