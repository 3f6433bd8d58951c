package seckill.ledger.rules;

/**
 * Peak shaving for the ledger: the stream absorbs a sale's burst, and the workers of this instance
 * turn it into orders at no more than {@code perSecond} (the hot switch
 * {@code seckill.ordering.max-orders-per-second}; 0 means no cap). A token bucket holding at most one
 * second's worth: a worker asks for a batch and is granted what the bucket holds once that is a
 * whole batch (or a tenth of a second's worth, if less), and gives back what the stream did not have.
 */
public final class OrderPace {

    private static final long NANOS = 1_000_000_000L;

    private double tokens;
    private long refilledAt;
    private long rate;

    public OrderPace(long nowNanos) {
        this.refilledAt = nowNanos;
    }

    /** How many of {@code wanted} events may be turned into orders now (0: wait), at {@code perSecond}. */
    public synchronized int grant(int wanted, long nowNanos, long perSecond) {
        if (perSecond <= 0) {
            rate = 0;
            return wanted;
        }
        // a new cap starts with a full second's worth, as a sale's first second would
        refill(nowNanos, perSecond);
        // grant whole batches (or a tenth of a second's worth at a low cap), never crumbs: each grant
        // is one ledger transaction, and a worker polling often would otherwise turn the cap into
        // thousands of two-order transactions a second
        long smallest = Math.min(wanted, Math.max(1, perSecond / 10));
        if (tokens < smallest) {
            return 0;
        }
        int granted = (int) Math.min(wanted, Math.floor(tokens));
        tokens -= granted;
        return granted;
    }

    /**
     * Takes {@code events} more at once if the bucket holds them now, at {@code perSecond}: what a worker
     * asks beyond its grant when the entries it read record more events than granted (an entry of a
     * coalesced call is settled whole). An entry larger than a second's worth is taken once the bucket is
     * full, leaving it in debt, so the rate over time stays the cap.
     *
     * @return whether they were taken (always, with no cap); if not, wait and ask again
     */
    public synchronized boolean take(int events, long nowNanos, long perSecond) {
        if (perSecond <= 0) {
            rate = 0;
            return true;
        }
        refill(nowNanos, perSecond);
        if (tokens < Math.min(events, perSecond)) {
            return false;
        }
        tokens -= events;
        return true;
    }

    private void refill(long nowNanos, long perSecond) {
        if (perSecond != rate) {
            rate = perSecond;
            tokens = perSecond;
        } else {
            tokens = Math.min(perSecond, tokens + (double) (nowNanos - refilledAt) * perSecond / NANOS);
        }
        refilledAt = nowNanos;
    }

    /** Returns tokens a worker was granted but did not use (the stream held fewer events). */
    public synchronized void giveBack(int unused) {
        if (rate > 0 && unused > 0) {
            tokens = Math.min(rate, tokens + unused);
        }
    }
}
