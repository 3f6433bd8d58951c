package seckill.queue.api;

/**
 * Whether a buyer already bought in an activity, read from a record that outlives the line's Redis keys (the
 * ledger's orders and the reservations Redis holds), supplied by the deployable like {@link LineSales}. The line
 * asks it only on two rare paths, never on an ordinary join or read: a signed ticket shown for a buyer Redis no
 * longer knows (the line's keys lost), and a buyer whose pass expired joining again (a used pass whose mark a
 * failover lost reads as expired). A buyer who bought is then served ({@link PlaceState#USED}), not put back in
 * the line for a second turn.
 */
public interface PastPurchases {

    /**
     * Whether the buyer holds or held a reservation in the activity (queued, ordered, or failed after it was
     * made: their turn was used either way). Throws a {@link RuntimeException} when the record cannot tell.
     */
    boolean boughtIn(long activityId, long buyerId);
}
