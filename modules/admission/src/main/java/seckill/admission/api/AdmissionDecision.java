package seckill.admission.api;

/**
 * Admission's answer for one attempt. Only {@link Admitted} lets the attempt reach reservation;
 * every other decision is final for this request and tells the client what to do next.
 */
public sealed interface AdmissionDecision {

    /**
     * Passed every check admission makes; the buyer's own rate limit ({@code buyerAttempts} per
     * {@code buyerWindowMillis}) is left to the reservation step, which judges it in the same call
     * that dedupes and takes stock, and reports a refusal back ({@link Admission#throttledAtReservation}).
     */
    record Admitted(long buyerAttempts, long buyerWindowMillis) implements AdmissionDecision {
    }

    record NotStarted(long secondsUntilStart) implements AdmissionDecision {
    }

    record Ended() implements AdmissionDecision {
    }

    /** Sales are halted on this instance (the reservation store is in doubt, or an operator said so). */
    record Halted(HaltReason reason, long retryAfterSeconds) implements AdmissionDecision {
    }

    /**
     * The call leasing the global rate did not answer: Redis is in doubt. The caller decides what that means for
     * sales (the purchase halts them: stop issuing, reconcile, resume).
     */
    record InDoubt() implements AdmissionDecision {
    }

    /**
     * Over a rate limit: {@code limit} is BUYER (this buyer's rate) or GLOBAL (the activity's
     * admission rate); retry after the given seconds. Never a sold-out or a failure.
     */
    record Throttled(String limit, long retryAfterSeconds, long buyerLimit, long buyerRemaining,
                     long resetSeconds) implements AdmissionDecision {
    }

    /** No valid purchase token: missing, forged, expired, or another buyer's or activity's. */
    record TokenInvalid(String reason) implements AdmissionDecision {
    }

    /** The buyer or the client address is on a blocklist. */
    record Blocked(String what) implements AdmissionDecision {
    }

    /** This instance already knows the SKU is sold out; no Redis call is needed. */
    record SoldOut() implements AdmissionDecision {
    }
}
