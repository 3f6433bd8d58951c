package seckill.ledger;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import seckill.ledger.hooks.CrashPoint;

/**
 * Rehearsed worker crashes (drills, tests). Armed per crash point with a number of shots; when a
 * batch reaches an armed point, the worker dies with the batch in hand, as a killed process would.
 */
@ApplicationScoped
class CrashInjection {

    /** Kills the worker thread; never caught by the settlement code, only by the worker loop. */
    static final class WorkerCrash extends RuntimeException {
        WorkerCrash(CrashPoint point) {
            super("rehearsed worker crash " + point, null, false, false);
        }
    }

    private final Map<CrashPoint, AtomicInteger> armed = new EnumMap<>(CrashPoint.class);

    CrashInjection() {
        for (CrashPoint point : CrashPoint.values()) {
            armed.put(point, new AtomicInteger());
        }
    }

    void arm(CrashPoint point, int times) {
        armed.get(point).set(times);
    }

    void reached(CrashPoint point) {
        AtomicInteger shots = armed.get(point);
        if (shots.get() > 0 && shots.getAndDecrement() > 0) {
            throw new WorkerCrash(point);
        }
    }
}
