package seckill.app.sale;

import seckill.admission.api.AdmissionDecision;
import seckill.admission.api.HaltReason;
import seckill.admission.api.SaleWindow;
import seckill.reservation.api.ReservationId;

/**
 * Everything a purchase can come to. Only {@link Reserved} and {@link AlreadyReserved} hold a
 * reservation; each other outcome says why not, and whether a retry can help is the edge's to tell.
 */
public sealed interface PurchaseOutcome {

    /** A new reservation: its event is in the stream and will become an order. */
    record Reserved(ReservationId id) implements PurchaseOutcome {
    }

    /** The buyer already holds this reservation (a retried or repeated click): the same id again. */
    record AlreadyReserved(ReservationId id) implements PurchaseOutcome {
    }

    record UnknownActivity(long activityId) implements PurchaseOutcome {
    }

    record UnknownSku(long activityId, long skuId) implements PurchaseOutcome {
    }

    /** More units than one buyer may take of this SKU. */
    record OverBuyerLimit(long perUserLimit) implements PurchaseOutcome {
    }

    /**
     * Admission turned the attempt away before stock was touched ({@code refusal} is never
     * {@code Admitted} or {@code InDoubt}); {@code window} is the activity's, for the answer.
     */
    record NotAdmitted(AdmissionDecision refusal, SaleWindow window) implements PurchaseOutcome {
    }

    /**
     * The queue is on and the purchase shows no valid pass (issue #33): the buyer joins the activity's line
     * and buys when called. {@code reason}: MISSING, EXPIRED, INVALID (forged, another buyer's or
     * activity's: the detail is the operators', counted, not the client's), or USED (the pass bought, or is
     * buying, another purchase: one turn buys once).
     */
    record PassRequired(long activityId, String reason) implements PurchaseOutcome {
    }

    record SoldOut(long skuId) implements PurchaseOutcome {
    }

    /** Fewer units left than asked for; asking for fewer may succeed. */
    record InsufficientStock(long remaining) implements PurchaseOutcome {
    }

    /** The SKU's stock is not in Redis (not preheated, or lost and not yet restored). */
    record NotReady() implements PurchaseOutcome {
    }

    /** Another click of the same buyer is being served right now. */
    record InProgress() implements PurchaseOutcome {
    }

    /** This instance is at capacity; the attempt never reached Redis, nothing happened. */
    record Busy() implements PurchaseOutcome {
    }

    /**
     * The waiting line's replicas did not acknowledge that the pass is bound to this purchase (issue #33): nothing
     * was reserved, and a retry is safe (answered 503 {@code BUSY}, like {@link Busy}).
     */
    record PassNotRecorded() implements PurchaseOutcome {
    }

    /**
     * Redis was in doubt during this very attempt and sales are now halted on this instance; the
     * attempt may or may not have reserved (a retry with the same request returns it if it did).
     */
    record HaltedInDoubt(HaltReason reason) implements PurchaseOutcome {
    }

    /** The buyer's record in Redis could not be read: a defect, logged with the reply. */
    record Unreadable() implements PurchaseOutcome {
    }
}
