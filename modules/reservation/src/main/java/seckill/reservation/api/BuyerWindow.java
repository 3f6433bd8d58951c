package seckill.reservation.api;

/**
 * A buyer's rate limit, judged by the reservation step itself: at most {@code attempts} attempts
 * per buyer per SKU in a window of {@code millis} that opens with the first one. It is kept on the
 * slot of the buyer's home bucket, so the one script call that dedupes and takes stock judges it
 * too. {@link #NONE} judges no window.
 */
public record BuyerWindow(long attempts, long millis) {

    public static final BuyerWindow NONE = new BuyerWindow(0, 0);
    /**
     * The longest window the reservation script judges (about 31 years): a window hash expires at a
     * multiple of {@code millis}, and from 10^17 ms on Redis' Lua prints that number as {@code 1e+17}.
     */
    public static final long MAX_MILLIS = 1_000_000_000_000L;

    public BuyerWindow {
        if (attempts < 0 || millis < 0 || (attempts > 0 && millis == 0) || millis > MAX_MILLIS) {
            throw new IllegalArgumentException(
                    "a window needs attempts >= 0 and, with attempts, 0 < millis <= " + MAX_MILLIS);
        }
    }

    public boolean judged() {
        return attempts > 0;
    }
}
