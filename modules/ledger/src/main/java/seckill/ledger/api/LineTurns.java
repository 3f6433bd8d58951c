package seckill.ledger.api;

import java.time.Instant;

/**
 * The waiting line's turns that ran out unused (issue #33; recorded when the line withdraws the pass and when the buyer
 * joins the line again), kept in the ledger's table {@code seckill_line_turn_left} of the activity's world, where the
 * line's Redis keys are not: after those keys are lost, a ticket of the place such a turn was given at is known as
 * replaced, and
 * gives back no place ahead of buyers who never had a turn. Per buyer and activity only the highest such place is kept:
 * places grow, so every earlier ticket of the buyer is replaced too.
 */
public interface LineTurns {

    /**
     * Records that the buyer's turn at {@code place} ran out unused; committed when
     * it returns. Keeps the highest place recorded, so running it again, or with an earlier place, changes nothing.
     * Throws a {@link RuntimeException} when the ledger could not record it.
     */
    void recordLeft(long activityId, long userId, long place, Instant at);

    /** The highest place whose turn the buyer left so; 0 when none. Throws when the ledger cannot tell. */
    long lastLeft(long activityId, long userId);
}
