package seckill.queue.api;

/** The line's figures for the operations view, as this instance last read them. */
public interface QueueFigures {

    record LineReading(long activityId, long waiting, long passesOut, long called, double calledPerSecond,
                       boolean closed) {
    }

    java.util.List<LineReading> lines();
}
