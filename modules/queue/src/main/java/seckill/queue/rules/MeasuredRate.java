package seckill.queue.rules;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Buyers called per second over the last {@code windowMillis}, from samples of the line's running total of
 * called buyers (every instance's calls, read from Redis): the correction {@link WaitEstimate} applies. Not
 * measured (-1) until the samples span at least a second. Plain logic; synchronised, since the admitting
 * tick adds samples while requests read the rate.
 */
public final class MeasuredRate {

    private record Sample(long atMillis, long called) {
    }

    private final long windowMillis;
    private final Deque<Sample> samples = new ArrayDeque<>();

    public MeasuredRate(long windowMillis) {
        this.windowMillis = Math.max(1000, windowMillis);
    }

    /** The line's total of called buyers as read at {@code atMillis}. */
    public synchronized void sample(long atMillis, long called) {
        Sample last = samples.peekLast();
        if (last != null && (atMillis < last.atMillis() || called < last.called())) {
            // a clock step back or a total that went back (a line state lost to a failover): start again
            samples.clear();
        }
        samples.addLast(new Sample(atMillis, called));
        while (samples.size() > 2 && samples.peekFirst().atMillis() < atMillis - windowMillis) {
            samples.removeFirst();
        }
    }

    /** Buyers called per second over the window, or -1 while the samples span less than a second. */
    public synchronized double perSecond() {
        if (samples.size() < 2) {
            return -1;
        }
        Sample first = samples.peekFirst();
        Sample last = samples.peekLast();
        long span = last.atMillis() - first.atMillis();
        if (span < 1000) {
            return -1;
        }
        return (last.called() - first.called()) * 1000.0 / span;
    }
}
