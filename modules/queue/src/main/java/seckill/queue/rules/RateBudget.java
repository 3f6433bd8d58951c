package seckill.queue.rules;

/**
 * How many buyers the line may have called by a moment of a second, at {@code rate} per second: the
 * second's budget spread over it ({@code ceil(rate × (ms + 1) / 1000)}, the whole rate by its last
 * millisecond), so a rate of 100 calls about ten every tenth of a second rather than a hundred at its
 * first tick. The Redis script subtracts what was already called in that second (by any instance),
 * so together the instances never call more than the rate in one second.
 */
public final class RateBudget {

    private RateBudget() {
    }

    /** Buyers that may have been called in the second by {@code millisIntoSecond} (0-999); 0 for no rate. */
    public static long allowedBy(long rate, long millisIntoSecond) {
        if (rate <= 0) {
            return 0;
        }
        long ms = Math.clamp(millisIntoSecond, 0, 999);
        // rate × (ms + 1) cannot overflow for any rate an operator sets (below 2^53)
        return Math.min(rate, (rate * (ms + 1) + 999) / 1000);
    }
}
