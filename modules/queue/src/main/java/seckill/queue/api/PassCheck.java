package seckill.queue.api;

import java.util.Optional;

/** What a purchase asks of the line while the queue is on. */
public interface PassCheck {

    /** Why the pass does not let this buyer buy in this activity now, or empty when it does. No Redis call. */
    Optional<String> refusal(long activityId, long buyerId, Optional<String> pass);

    /**
     * Binds the buyer's (valid) pass to this purchase before it reserves: one turn, one purchase. {@link
     * PassClaim#BOUND} when the pass is this purchase's (shown first, or the same {@code requestId} asked again),
     * {@link PassClaim#TAKEN} when it is bound to another purchase (it bought, or is buying, something else) or is a
     * new pass of a buyer whose pass was used, {@link PassClaim#RAN_OUT} when the line withdrew it (its time ran out
     * by the line's clock between the purchase's check in memory and this call: the room went to the next buyer).
     * Throws {@link LineUnavailable} when Redis did not answer (nothing bound: on a Redis Cluster the line's master
     * may be down while the reservation's answer) or the binding was written but the replicas in force did not
     * acknowledge it (a failover could lose it): either way the pass could buy again, so the purchase must not go on;
     * release it, and the buyer asks again.
     */
    PassClaim bind(long activityId, long buyerId, String pass, String requestId);

    /** Whether {@link #bind} bound the pass to this purchase. */
    default boolean claim(long activityId, long buyerId, String pass, String requestId) {
        return bind(activityId, buyerId, pass, requestId) == PassClaim.BOUND;
    }

    /** The claimed purchase got nothing (sold out, refused, throttled): the pass may buy something else. */
    void release(long activityId, long buyerId, String pass, String requestId);

    /**
     * The buyer's pass bought something: their place is served and the room it held goes to the next
     * buyer. Best effort: when Redis does not answer, the pass frees its room when it expires.
     */
    void used(long activityId, long buyerId);
}
