package seckill.queue.api;

/** The line's figures for the operations view, as this instance last read them. */
public interface QueueFigures {

    /**
     * One line as the last tick of this instance read it: buyers waiting, passes out, buyers called so far (every
     * instance's), the rate it was measured calling at over the last 10 s (-1 before that), whether it is closed
     * (sold out), and the estimated wait of its last buyer in seconds (-1: cannot be told).
     */
    record LineReading(long activityId, long waiting, long passesOut, long called, double calledPerSecond,
                       boolean closed, long waitEstimateSeconds) {
    }

    java.util.List<LineReading> lines();
}
