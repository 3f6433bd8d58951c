package seckill.reservation.api;

/**
 * A buyer's rate limit, judged by the reservation step itself: at most {@code attempts} attempts
 * per buyer per SKU in a window of {@code millis} that opens with the first one. It is kept on the
 * slot of the buyer's home bucket, so the one script call that dedupes and takes stock judges it
 * too. {@link #NONE} judges no window.
 */
public record BuyerWindow(long attempts, long millis) {

    public static final BuyerWindow NONE = new BuyerWindow(0, 0);

    public BuyerWindow {
        if (attempts < 0 || millis < 0 || (attempts > 0 && millis == 0)) {
            throw new IllegalArgumentException("a window needs attempts >= 0 and, with attempts, millis > 0");
        }
    }

    public boolean judged() {
        return attempts > 0;
    }
}
