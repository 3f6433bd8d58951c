package seckill.chaos.api;

import java.util.List;
import java.util.Map;

/**
 * One line of a chaos run's history file. The file starts with {@link RunStarted} and the whole
 * {@link Planned} schedule (drawn from the seed before anything runs, so two runs of one seed can be
 * compared line by line), then {@link ActivityLaunched}, then {@link Operation}s and
 * {@link FaultEvent}s as they end, then {@link Healed} once every fault is undone, and last the
 * {@link ShelfRead} the checker judged. Times are a
 * monotonic clock in nanoseconds (comparable within one run only) plus the wall clock in ISO-8601.
 */
public sealed interface HistoryEntry {


    /** The run's parameters; always the first line. */
    record RunStarted(long seed, long durationMillis, int instances, String topology, String wall)
            implements HistoryEntry {
    }

    /** One step of the schedule, as the generator drew it from the seed. */
    record Planned(int step, long atMillis, String kind, int instance, String detail) implements HistoryEntry {
    }

    /** The activity the run sells: units per SKU, and the payment window its orders have. */
    record ActivityLaunched(long activityId, Map<Long, Long> stock, long paymentWindowSeconds, List<Integer> ports)
            implements HistoryEntry {
    }

    /**
     * One client request and what came of it: the HTTP status (0 when no answer came) with the body
     * and {@code Retry-After}, or the exception ({@code error}: timeout, connection refused, ...).
     * {@code step} is the schedule step it executes (-1 for the runner's own probes and checks).
     * {@code sent}: what was sent, where the checker needs it (a payment callback's body and signature
     * header); {@code forged}: null for a genuine request, else how a payment callback was forged
     * ({@code bad-signature}, {@code no-signature}, {@code replayed-amount}, ...): the service must
     * refuse it. Both absent in files written before they existed.
     */
    record Operation(long seq, int step, OpKind kind, int instance, Long buyer, Long activity, Long sku,
                     String requestId, long sendNanos, String sendWall, long answerNanos, String answerWall,
                     int status, String body, String retryAfter, String error, String sent, String forged)
            implements HistoryEntry {

        /** An operation with nothing of what was sent kept, not forged (every kind but payments). */
        public Operation(long seq, int step, OpKind kind, int instance, Long buyer, Long activity, Long sku,
                         String requestId, long sendNanos, String sendWall, long answerNanos, String answerWall,
                         int status, String body, String retryAfter, String error) {
            this(seq, step, kind, instance, buyer, activity, sku, requestId, sendNanos, sendWall, answerNanos,
                    answerWall, status, body, retryAfter, error, null, null);
        }

        /** Whether the request was forged on purpose (a hostile payment callback). */
        public boolean isForged() {
            return forged != null || kind == OpKind.HOSTILE_PAYMENT;
        }

        /** Whether an HTTP answer came back at all. */
        public boolean answered() {
            return status > 0;
        }

        /** The same operation, answered by an exception instead of a status. */
        public Operation withError(String error) {
            return new Operation(seq, step, kind, instance, buyer, activity, sku, requestId, sendNanos, sendWall,
                    answerNanos, answerWall, 0, null, null, error, sent, forged);
        }
    }

    /** A fault, written once it has ended (or been healed): what, on which target, from when to when. */
    record FaultEvent(int step, FaultKind kind, String target, long startNanos, String startWall, long endNanos,
                      String endWall) implements HistoryEntry {
    }

    /**
     * The units on each SKU's shelf in Redis as the checker read them at the end, and the units held
     * by events no ordering worker had acknowledged ({@code inFlight}, empty in histories written
     * before it was read), kept so the run can be judged again later, when the run's Redis is gone.
     */
    record ShelfRead(long activityId, Map<Long, Long> units, Map<Long, Long> inFlight, long nanos, String wall)
            implements HistoryEntry {

        /** A reading without the units in flight (as histories written before 2026-12-03 have it). */
        public ShelfRead(long activityId, Map<Long, Long> units, long nanos, String wall) {
            this(activityId, units, Map.of(), nanos, wall);
        }
    }

    /**
     * Every fault is undone (processes continued or restarted, proxies restored, Redis unpaused) at
     * {@code nanos}; every instance must answer purchases again within {@code resumeBoundMillis}.
     */
    record Healed(long nanos, String wall, long resumeBoundMillis) implements HistoryEntry {
    }
}
