package seckill.queue.api;

/**
 * The line's turns that ran out unused and that the buyer left by joining the line again, kept in a record that
 * outlives the line's Redis keys, supplied by the deployable like {@link PastPurchases}. A buyer who joins again gets
 * a new place and a new ticket, yet keeps the old ticket; once the line's keys are lost wholly (a failover that took
 * unreplicated writes, a restart without persistence) nothing in Redis knows that ticket was replaced, and it would
 * give back the first place, ahead of buyers who never had a turn. The line records a turn when its tick withdraws the
 * pass unused and again before it gives such a buyer a new place, and asks the record for a ticket of a buyer Redis
 * does not know: a replaced ticket gets a place at the end. Written at most twice per pass run out, read only on that
 * rare path, never on an ordinary join or read.
 */
public interface PastTurns {

    /**
     * Records that the buyer's turn at {@code place} ran out unused (they may join the line again): from now on a
     * ticket naming that place or an earlier one is replaced. Durable when it returns; running it again changes
     * nothing. Throws a {@link RuntimeException} when it could not be recorded.
     */
    void turnLeft(long activityId, long buyerId, long place);

    /**
     * The highest place whose turn the buyer left so in the activity (tickets naming it or an earlier place are
     * replaced); 0 when none. Throws a {@link RuntimeException} when the record cannot tell.
     */
    long lastTurnLeft(long activityId, long buyerId);
}
