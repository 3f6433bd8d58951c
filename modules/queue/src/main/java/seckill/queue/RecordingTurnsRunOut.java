package seckill.queue;

import java.time.Clock;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import seckill.queue.api.PastTurns;

/**
 * Records the turns a tick withdrew unused in the record that outlives the line's keys ({@link PastTurns}), so that
 * once those keys are lost wholly the buyer's ticket of that place gives back no place ahead of buyers who never had
 * a turn (it is replaced: a place at the end). Until 2026-12-04 a turn was recorded only when its buyer joined
 * again, and a buyer who had not yet done so got their first place back
 * ({@code LineTest.anExpiredTurnNotYetLeftGivesNoPlaceAheadAfterTheLineWasLost}).
 *
 * <p>One row per pass that ran out, written after {@code admit.lua} withdrew it, off the tick's thread (a slow ledger
 * never slows the line's calls); a record the ledger did not take is tried again at the next ticks (kept in memory, at most {@value #KEPT} per line: past that the oldest
 * wait for the buyer's own join again, which records the turn too). An instance lost between the withdrawal and the
 * record leaves that buyer's turn unrecorded until they join again: the window the join's record closes.
 */
@QueueBean
class RecordingTurnsRunOut {

    private static final Logger LOG = Logger.getLogger(RecordingTurnsRunOut.class.getName());

    /** Records kept per line while the ledger does not take them. */
    static final int KEPT = 100_000;

    private final PastTurns turns;
    private final Clock clock;
    /** Turns the ledger did not take yet, per activity: buyer → the place whose turn ran out. */
    private final Map<Long, Map<Long, Long>> unrecorded = new ConcurrentHashMap<>();
    private volatile long quietUntil = Long.MIN_VALUE;
    private final Executor recorder;
    private final AtomicBoolean recording = new AtomicBoolean();

    @Inject
    RecordingTurnsRunOut(PastTurns turns, Clock clock) {
        this(turns, clock, Executors.newSingleThreadExecutor(r -> Thread.ofPlatform().daemon(true)
                .name("queue-turns-run-out").unstarted(r)));
    }

    /** With the executor the records are written on ({@code Runnable::run}: on the tick's thread, in tests). */
    RecordingTurnsRunOut(PastTurns turns, Clock clock, Executor recorder) {
        this.turns = turns;
        this.clock = clock;
        this.recorder = recorder;
    }

    @PreDestroy
    void stop() {
        if (recorder instanceof ExecutorService owned) {
            owned.shutdownNow();
        }
    }

    /** The passes {@code admit.lua} withdrew now: {@code [buyer, place, buyer, place, ...]}. */
    void ranOut(long activityId, List<?> buyersAndPlaces) {
        if (buyersAndPlaces.isEmpty()) {
            return;
        }
        unrecorded.compute(activityId, (id, kept) -> {
            Map<Long, Long> turnsOut = kept == null ? new ConcurrentHashMap<>() : kept;
            for (int i = 0; i + 1 < buyersAndPlaces.size(); i += 2) {
                long place = Long.parseLong(seckill.redis.RedisScript.text(buyersAndPlaces.get(i + 1)));
                if (place > 0 && turnsOut.size() < KEPT) {
                    turnsOut.merge(Long.parseLong(seckill.redis.RedisScript.text(buyersAndPlaces.get(i))), place,
                            Math::max);
                }
            }
            return turnsOut.isEmpty() ? null : turnsOut;
        });
        recordAgain(activityId);
    }

    /** Has the line's turns the ledger did not take yet recorded (one recording at a time, off the tick). */
    void recordAgain(long activityId) {
        if (!unrecorded.containsKey(activityId) || clock.millis() < quietUntil || !recording.compareAndSet(false, true)) {
            return;
        }
        try {
            recorder.execute(() -> {
                try {
                    record(activityId);
                } finally {
                    recording.set(false);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException stopping) {
            recording.set(false);
        }
    }

    /** Records the line's kept turns; stops at the first the ledger does not take. */
    private void record(long activityId) {
        Map<Long, Long> kept = unrecorded.get(activityId);
        if (kept == null) {
            return;
        }
        for (Iterator<Map.Entry<Long, Long>> it = kept.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Long, Long> turn = it.next();
            try {
                turns.turnLeft(activityId, turn.getKey(), turn.getValue());
                it.remove();
            } catch (RuntimeException e) {
                // the ledger is down: left alone for a second (ticks run every 100 ms), never a connection per turn
                quietUntil = clock.millis() + AskingPastPurchases.QUIET_MILLIS;
                LOG.log(Level.FINE, "turns run out not recorded yet; tried again at a later tick", e);
                return;
            }
        }
        unrecorded.computeIfPresent(activityId, (id, turnsOut) -> turnsOut.isEmpty() ? null : turnsOut);
    }

    /** Turns waiting to be recorded again (all lines). */
    int unrecorded() {
        return unrecorded.values().stream().mapToInt(Map::size).sum();
    }
}
