package seckill.ledger.rules;

/**
 * The pause of one worker between failed attempts (the ledger or Redis failing): 100 ms after the
 * first failure, doubled after each further one, never longer than {@code maxMillis}; an attempt
 * that succeeds starts it over. One per worker thread.
 */
public final class Backoff {

    private static final long FIRST_MILLIS = 100;

    private final long maxMillis;
    private long current;

    public Backoff(long maxMillis) {
        this.maxMillis = maxMillis;
    }

    /** The pause after one more failure, in milliseconds. */
    public long afterFailure() {
        current = Math.min(maxMillis, Math.max(FIRST_MILLIS, current * 2));
        return current;
    }

    /** An attempt went through: the next failure pauses {@value #FIRST_MILLIS} ms again. */
    public void afterSuccess() {
        current = 0;
    }
}
