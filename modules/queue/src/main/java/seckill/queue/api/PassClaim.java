package seckill.queue.api;

/**
 * What binding a pass to a purchase found ({@link PassCheck#bind}): the pass is this purchase's and it may reserve;
 * it is taken by another purchase (one turn buys once); or the line withdrew it, its time having run out, and gave
 * its room to the next buyer, so it buys nothing and the buyer joins again.
 */
public enum PassClaim {
    /** The pass is this purchase's: it may reserve. */
    BOUND,
    /** Bound to another purchase, or a new pass of a buyer whose turn bought already. */
    TAKEN,
    /** Withdrawn by the line (its time ran out): the room went to the next buyer. */
    RAN_OUT
}
