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
        // ceil(rate × (ms + 1) / 1000) without forming rate × (ms + 1), which overflows for a rate above
        // Long.MAX_VALUE / 1000 (an operator's "no limit"): rate = 1000 w + p
        long whole = rate / 1000;
        long part = rate % 1000;
        return Math.min(rate, whole * (ms + 1) + (part * (ms + 1) + 999) / 1000);
    }
}
