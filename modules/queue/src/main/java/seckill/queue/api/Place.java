package seckill.queue.api;

import java.util.Optional;

/**
 * A buyer's place in an activity's line.
 *
 * @param place                 the place handed out: an ordering key, not a count (a smaller place is
 *                              ahead; numbered from the clock so a line Redis lost cannot hand it out
 *                              again); join order after the start, the drawn order for the pre-queue;
 *                              0 while in the pre-queue or not in line
 * @param position              buyers to go before them, counting themselves (1: next); 0 unless WAITING/SOLD_OUT
 * @param estimatedWaitSeconds  ahead ÷ the rate the line moves at; -1 when it cannot be told
 * @param waiting               buyers in the line now (the pre-queue's size before the start)
 * @param called                buyers the line has called so far (every instance's)
 * @param ticket                the signed ticket that names this place (shown again, it restores a place Redis lost)
 * @param pass                  the pass, when it is the buyer's turn
 */
public record Place(long activityId, long buyerId, PlaceState state, long place, long position,
                    long estimatedWaitSeconds, long waiting, long called, String ticket, Optional<Pass> pass) {

    /**
     * An id that changes whenever what the buyer is told changes: the event id of a pushed update, so a
     * client reconnecting with it is not sent the same state again.
     */
    public String eventId() {
        return called + "." + state.ordinal() + "." + position;
    }
}
