package seckill.queue.api;

/** Joining an activity's line. */
public interface JoinLine {

    /**
     * Gives the buyer a place, or the one they have: joining again returns the same place. A buyer whose
     * pass expired unused is put at the end. While the line is closed (sold out) a new buyer gets
     * {@link PlaceState#SOLD_OUT} and no place. Throws {@link LineUnavailable} when Redis does not answer.
     */
    Place join(long activityId, long buyerId, QueueWindow window);
}
