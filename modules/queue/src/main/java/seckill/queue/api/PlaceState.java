package seckill.queue.api;

/** Where a buyer stands in an activity's line. */
public enum PlaceState {
    /** Joined before the start: their place is drawn when the sale starts (arriving early gains nothing). */
    PRE_QUEUE,
    /** In the line, {@link Place#position()} to go. */
    WAITING,
    /** Called: they hold a pass ({@link Place#pass()}) and may buy until it expires. */
    YOUR_TURN,
    /** Their pass bought something. */
    USED,
    /** Their pass expired unused: their place went to the next buyer; joining again puts them at the end. */
    EXPIRED,
    /** Every unit is gone: the line is closed; buyers keep their places and it opens again if units come back. */
    SOLD_OUT,
    /** Not in this line. */
    NOT_IN_LINE
}
