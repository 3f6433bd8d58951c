package seckill.admission.api;

/**
 * Admission's answer for one attempt. Only {@link Admitted} lets the attempt reach reservation;
 * every other decision is final for this request and tells the client what to do next.
 */
public sealed interface AdmissionDecision {

    record Admitted() implements AdmissionDecision {
    }

    record NotStarted(long secondsUntilStart) implements AdmissionDecision {
    }

    record Ended() implements AdmissionDecision {
    }

    /** Sales are halted on this instance (the reservation store is in doubt, or an operator said so). */
    record Halted(String reason, long retryAfterSeconds) implements AdmissionDecision {
    }

    /** This instance already knows the SKU is sold out; no Redis call is needed. */
    record SoldOut() implements AdmissionDecision {
    }
}
