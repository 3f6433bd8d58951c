package seckill.admission.rules;

/**
 * How many requests per second arrived over the last ten seconds, on this instance: ten one-second
 * counters in a ring, moved by the caller's clock. Plain logic; the caller serialises access.
 */
public final class RecentRate {

    private static final int SECONDS = 10;

    private final long[] counts = new long[SECONDS];
    private final long[] secondOf = new long[SECONDS];

    /** Counts one request at {@code millis}. */
    public synchronized void count(long millis) {
        long second = Math.floorDiv(millis, 1000);
        int slot = (int) Math.floorMod(second, SECONDS);
        if (secondOf[slot] != second) {
            secondOf[slot] = second;
            counts[slot] = 0;
        }
        counts[slot]++;
    }

    /** Requests per second, averaged over the ten seconds ending at {@code millis}. */
    public synchronized double perSecond(long millis) {
        long now = Math.floorDiv(millis, 1000);
        long total = 0;
        for (int i = 0; i < SECONDS; i++) {
            if (secondOf[i] > now - SECONDS && secondOf[i] <= now) {
                total += counts[i];
            }
        }
        return total / (double) SECONDS;
    }
}
