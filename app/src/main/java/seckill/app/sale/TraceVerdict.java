package seckill.app.sale;

import java.time.Duration;
import java.util.Optional;

/**
 * Support's verdict on one reservation, from what each layer holds: a short code and a sentence for
 * the operator. Plain rule: knows nothing of Redis, SQL or HTTP. The ledger decides first (an order
 * or a failure is final); only without either does the stream entry say where the reservation waits.
 */
public final class TraceVerdict {

    private TraceVerdict() {
    }

    /** The codes, stable for tooling. */
    public enum Code {
        /** In the stream, not yet handed to an ordering worker. */
        QUEUED,
        /** Handed to a worker that is settling it now. */
        PENDING,
        /** Handed to a worker that has held it too long without a commit: it died or is stuck. */
        PENDING_STALLED,
        /** An order awaiting payment. */
        ORDERED,
        /** An order paid. */
        PAID,
        /** The order timed out unpaid and its unit is back in Redis. */
        EXPIRED_REFILLED,
        /** The order timed out unpaid; its unit is not yet back in Redis (the outbox relay has not applied it). */
        EXPIRED_REFILL_PENDING,
        /** The reservation can never be ordered and its unit is back in Redis. */
        FAILED_REFILLED,
        /** The reservation can never be ordered; its unit is not yet back in Redis. */
        FAILED_REFILL_PENDING,
        /** The stream says settled, yet the ledger has neither order nor failure: lost, escalate. */
        ACKNOWLEDGED_WITHOUT_ORDER,
        /** The layers do not add up to any known state. */
        UNKNOWN
    }

    /** Where the event stands in the stream (the reservation module's states, by name). */
    public enum Entry { UNDELIVERED, PENDING, ACKNOWLEDGED, NOT_FOUND, STREAM_MISSING }

    /** The order's status as the ledger holds it. */
    public enum Order { PENDING, PAID, TIMEOUT }

    /** The refill of the reservation's unit: none written, written but not applied to Redis, applied. */
    public enum Refill { NONE, WRITTEN, APPLIED }

    /**
     * What the layers hold.
     *
     * @param order        the order's status, if there is an order
     * @param failure      the reason the ledger gave up on the reservation, if it did
     * @param refill       the refill's state in the outbox
     * @param entry        the stream entry's state
     * @param consumer     the worker holding a pending entry
     * @param deliveries   how often the entry was handed out
     * @param idle         how long a pending entry has waited since its last delivery
     * @param refusals     how often the ledger refused the event so far
     * @param buyerHolds   whether the buyer's record in Redis holds this reservation
     */
    public record Facts(Optional<Order> order, Optional<String> failure, Refill refill, Entry entry,
                        Optional<String> consumer, long deliveries, Duration idle, int refusals, boolean buyerHolds) {
    }

    /** A code and the sentence that explains it. */
    public record Verdict(Code code, String words) {
    }

    /** Judges the facts; a pending entry idle {@code stalledAfter} or longer is a stalled one. */
    public static Verdict judge(Facts facts, Duration stalledAfter) {
        if (facts.order().isPresent()) {
            return switch (facts.order().get()) {
                case PAID -> new Verdict(Code.PAID, "The order is paid.");
                case PENDING -> new Verdict(Code.ORDERED, "The order exists and awaits payment.");
                case TIMEOUT -> facts.refill() == Refill.APPLIED
                        ? new Verdict(Code.EXPIRED_REFILLED, "The order timed out unpaid; its unit is back on sale in Redis.")
                        : new Verdict(Code.EXPIRED_REFILL_PENDING, "The order timed out unpaid; its refill "
                        + (facts.refill() == Refill.NONE ? "is not recorded" : "waits in the outbox")
                        + ", so the unit is not yet back in Redis (the relay applies it on its next pass).");
            };
        }
        if (facts.failure().isPresent()) {
            String why = "The reservation can never become an order (" + facts.failure().get() + ")";
            return facts.refill() == Refill.APPLIED
                    ? new Verdict(Code.FAILED_REFILLED, why + "; its unit is back on sale in Redis.")
                    : new Verdict(Code.FAILED_REFILL_PENDING, why + "; its refill "
                    + (facts.refill() == Refill.NONE ? "is not recorded" : "waits in the outbox")
                    + ", so the unit is not yet back in Redis.");
        }
        String refused = facts.refusals() > 0
                ? " The ledger refused it " + facts.refusals() + " time" + (facts.refusals() == 1 ? "" : "s") + " so far."
                : "";
        return switch (facts.entry()) {
            case UNDELIVERED -> new Verdict(Code.QUEUED, "Reserved in Redis and waiting in the stream; no ordering "
                    + "worker has taken it yet (is ordering paused or behind? see the stream lag).");
            case PENDING -> facts.idle().compareTo(stalledAfter) >= 0
                    ? new Verdict(Code.PENDING_STALLED, "Handed to worker " + facts.consumer().orElse("?") + " ("
                    + facts.deliveries() + " deliveries) and idle for " + facts.idle().toSeconds()
                    + " s without a commit: that worker died or is stuck; a live worker reclaims it after "
                    + "seckill.ordering.reclaim-idle-seconds." + refused)
                    : new Verdict(Code.PENDING, "Worker " + facts.consumer().orElse("?") + " is settling it now ("
                    + facts.deliveries() + " deliveries)." + refused);
            case ACKNOWLEDGED -> new Verdict(Code.ACKNOWLEDGED_WITHOUT_ORDER, "The stream says it was settled, yet the "
                    + "ledger has neither an order nor a failure for it: lost between the layers; escalate and run "
                    + "reconciliation.");
            case NOT_FOUND, STREAM_MISSING -> new Verdict(Code.UNKNOWN, (facts.buyerHolds()
                    ? "Redis holds it for the buyer, but "
                    : "")
                    + "no stream entry was found and the ledger has no order or failure"
                    + (facts.entry() == Entry.STREAM_MISSING ? " (the bucket's stream or its group is gone)" : "")
                    + "; run reconciliation for the activity." + refused);
        };
    }
}
