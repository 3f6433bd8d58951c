package seckill.app.sale;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.queue.api.PastPurchases;
import seckill.settlement.api.ReservationTracking;

/**
 * The record of past purchases the waiting line asks on its rare paths (issue #33: a ticket of a buyer Redis no
 * longer knows, a buyer whose pass expired joining again), read through settlement's api from the primary stores:
 * the buyer's orders and recorded failures in the ledger (the orders by the unique index on activity, buyer and
 * SKU), then the reservations Redis holds that the ledger has not seen yet. Outlives the line's keys, so a buyer
 * who was served is not put back in the line for a second turn.
 */
@ApplicationScoped
public class PurchasesForTheLine implements PastPurchases {

    private final ReservationTracking tracking;

    @Inject
    PurchasesForTheLine(ReservationTracking tracking) {
        this.tracking = tracking;
    }

    /** For CDI's proxy. */
    PurchasesForTheLine() {
        this(null);
    }

    @Override
    public boolean boughtIn(long activityId, long buyerId) {
        return !tracking.heldBy(activityId, buyerId).isEmpty();
    }
}
