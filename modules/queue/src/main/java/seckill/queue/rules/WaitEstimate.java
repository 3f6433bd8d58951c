package seckill.queue.rules;

/**
 * The estimated wait of a buyer: the buyers ahead divided by the rate the line moves at. The rate is the
 * operator's ({@code seckill.queue.rate}) corrected by what is actually called: when the line is measured
 * moving slower (the stock left caps the passes out at once, or passes are held until they are used or
 * expire), the measured rate is used; it is never taken faster than the operator's rate. Rounded up to
 * whole seconds; unknown (-1) when there is no rate. Plain logic.
 */
public final class WaitEstimate {

    /** The wait when it cannot be told. */
    public static final long UNKNOWN = -1;

    private WaitEstimate() {
    }

    /**
     * @param ahead         buyers waiting ahead (0 or more)
     * @param rate          the operator's rate, buyers per second
     * @param measuredRate  buyers actually called per second lately; 0 or less when not measured, or when
     *                      nobody was called lately (an empty line measures 0 and says nothing of its speed)
     */
    public static long seconds(long ahead, long rate, double measuredRate) {
        if (ahead <= 0) {
            return 0;
        }
        if (rate <= 0) {
            return UNKNOWN;
        }
        double moving = measuredRate <= 0 ? rate : Math.min(rate, measuredRate);
        return (long) Math.ceil(ahead / moving);
    }
}
