package seckill.admission.rules;

/**
 * This instance's share of one activity's global attempts-per-second budget, leased from Redis in
 * chunks: an attempt takes a token from the lease in memory, so the excess over the global rate is
 * refused without a Redis call, and Redis is asked only once per chunk. Tokens belong to their
 * second and are dropped when it ends (an instance never carries budget into the next second, so
 * all instances together never admit more than the rate). Once Redis said the second's budget is
 * spent, every further attempt in that second is refused here.
 */
public final class SecondBudget {

    /** What an attempt got: a token, a refusal, or the need to lease more first. */
    public enum Take { TAKEN, SPENT, LEASE }

    private long second = Long.MIN_VALUE;
    private long tokens;
    private boolean spent;

    /** Takes a token for an attempt at {@code nowMillis}. */
    public synchronized Take take(long nowMillis) {
        roll(nowMillis / 1000);
        if (tokens > 0) {
            tokens--;
            return Take.TAKEN;
        }
        return spent ? Take.SPENT : Take.LEASE;
    }

    /** Redis granted {@code granted} tokens of {@code second} (0: that second's budget is spent). */
    public synchronized void leased(long second, long granted) {
        roll(second);
        if (second != this.second) {
            return;  // granted for a second that has passed
        }
        if (granted <= 0) {
            spent = true;
        } else {
            tokens += granted;
        }
    }

    /**
     * Whether fewer than half a chunk of tokens are left in the second at {@code nowMillis} and Redis
     * has not said the second is spent: time to lease more before they run out, so the attempts
     * meanwhile take what is left instead of waiting behind the lease call.
     */
    public synchronized boolean runningLow(long nowMillis, long chunk) {
        roll(nowMillis / 1000);
        return !spent && tokens < Math.max(1, chunk / 2);
    }

    /** An attempt that took a token and was refused for another reason gives it back. */
    public synchronized void giveBack(long nowMillis) {
        if (nowMillis / 1000 == second) {
            tokens++;
        }
    }

    /** How many tokens to lease at once: a tenth of the rate, so about ten Redis calls a second. */
    public static long chunk(long perSecond) {
        return Math.max(1, perSecond / 10);
    }

    private void roll(long now) {
        if (now > second) {
            second = now;
            tokens = 0;
            spent = false;
        }
    }
}
