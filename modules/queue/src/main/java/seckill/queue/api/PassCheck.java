package seckill.queue.api;

import java.util.Optional;

/** What a purchase asks of the line while the queue is on. */
public interface PassCheck {

    /** Why the pass does not let this buyer buy in this activity now, or empty when it does. No Redis call. */
    Optional<String> refusal(long activityId, long buyerId, Optional<String> pass);

    /**
     * The buyer's pass bought something: their place is served and the room it held goes to the next
     * buyer. Best effort: when Redis does not answer, the pass frees its room when it expires.
     */
    void used(long activityId, long buyerId);
}
