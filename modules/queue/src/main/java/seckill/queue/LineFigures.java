package seckill.queue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import seckill.queue.api.QueueFigures;
import seckill.queue.rules.MeasuredRate;
import seckill.redis.World;

/**
 * What the admitting tick last read of each line, the rate each line is measured moving at, and the queue's
 * metrics: {@code seckill_queue_waiting} and {@code seckill_queue_passes_out} (over the lines this instance
 * moves), {@code seckill_queue_called_total} (buyers this instance called; its rate is admitted per second),
 * {@code seckill_queue_passes_expired_total}, {@code seckill_queue_passes_used_total} and
 * {@code seckill_queue_wait_estimate_seconds} (the longest line's wait for its last buyer) and
 * {@code seckill_queue_place_reads_total} (Redis calls reading places: the event streams' are one per line a period),
 * each labelled {@code world="real"} or, for a rehearsal's line, {@code world="rehearsal"}.
 */
@QueueBean
class LineFigures implements QueueFigures {

    private static final Metadata WAITING = Metadata.builder().withName("seckill.queue.waiting")
            .withDescription("Buyers waiting in the lines this instance moves (as last read).").build();
    private static final Metadata PASSES_OUT = Metadata.builder().withName("seckill.queue.passes.out")
            .withDescription("Passes handed out and neither used nor expired yet, over the lines this instance moves.")
            .build();
    private static final Metadata CALLED = Metadata.builder().withName("seckill.queue.called")
            .withDescription("Buyers this instance called from a line (gave a pass): its rate is admitted per second.")
            .build();
    private static final Metadata EXPIRED = Metadata.builder().withName("seckill.queue.passes.expired")
            .withDescription("Passes this instance withdrew unused when their time ran out (the place went to the "
                    + "next buyer).").build();
    private static final Metadata USED = Metadata.builder().withName("seckill.queue.passes.used")
            .withDescription("Passes that bought something on this instance.").build();
    private static final Metadata WAIT = Metadata.builder().withName("seckill.queue.wait.estimate.seconds")
            .withDescription("The estimated wait of the last buyer of the longest line this instance moves (-1: "
                    + "cannot be told).").build();

    private static final Metadata PLACE_READS = Metadata.builder().withName("seckill.queue.place.reads")
            .withDescription("Redis calls this instance made to read buyers' places: a GET of the place, a stream's "
                    + "restore by its ticket, or one call of a line's reader for the streams it follows (500 buyers).")
            .build();

    private final Map<Long, Line> lines = new ConcurrentHashMap<>();
    private final MetricRegistry metrics;
    // the series of each world: the real world's from the start, a rehearsal's from its first line or call
    // (docs/rehearsal.md: every series a rehearsal can move carries world="rehearsal", so alerts leave it out)
    private final Map<World, Series> series = new ConcurrentHashMap<>();
    private final QueueSwitches switches;

    private record Line(MeasuredRate rate, QueueFigures.LineReading last) {
    }

    private record Series(Counter called, Counter expired, Counter used, Counter placeReads) {
    }

    @Inject
    LineFigures(MetricRegistry metrics, QueueSwitches switches) {
        this.switches = switches;
        this.metrics = metrics;
        series(World.REAL);
    }

    private Series series(World world) {
        if (metrics == null) {
            return null;
        }
        return series.computeIfAbsent(world, w -> {
            Tag inWorld = new Tag(World.LABEL, w.label());
            metrics.gauge(WAITING, () -> lines(w).mapToLong(l -> l.last().waiting()).sum(), inWorld);
            metrics.gauge(PASSES_OUT, () -> lines(w).mapToLong(l -> l.last().passesOut()).sum(), inWorld);
            metrics.gauge(WAIT, () -> longestWait(w), inWorld);
            return new Series(metrics.counter(CALLED, inWorld), metrics.counter(EXPIRED, inWorld),
                    metrics.counter(USED, inWorld), metrics.counter(PLACE_READS, inWorld));
        });
    }

    private java.util.stream.Stream<Line> lines(World world) {
        return lines.values().stream().filter(l -> World.of(l.last().activityId()) == world);
    }

    /** What one tick of a line read: its figures after it and what it called and withdrew. */
    void ticked(long activityId, long atMillis, long calledNow, long expiredNow, long waiting, long passesOut,
                long calledTotal, boolean closed) {
        Line line = lines.computeIfAbsent(activityId, id -> new Line(new MeasuredRate(10_000),
                new QueueFigures.LineReading(id, 0, 0, 0, -1, false, -1)));
        line.rate().sample(atMillis, calledTotal);
        double perSecond = line.rate().perSecond();
        long wait = seckill.queue.rules.WaitEstimate.seconds(waiting, switches.rate(), perSecond);
        lines.put(activityId, new Line(line.rate(), new QueueFigures.LineReading(activityId, waiting, passesOut,
                calledTotal, perSecond, closed, wait)));
        Series counted = series(World.of(activityId));
        if (counted != null) {
            counted.called().inc(calledNow);
            counted.expired().inc(expiredNow);
        }
    }

    /** One Redis call reading places of the activity's line (one buyer's, or a line reader's for many). */
    void placesRead(long activityId) {
        Series counted = series(World.of(activityId));
        if (counted != null) {
            counted.placeReads().inc();
        }
    }

    void passUsed(long activityId) {
        Series counted = series(World.of(activityId));
        if (counted != null) {
            counted.used().inc();
        }
    }

    /** The line's measured rate, or -1 when not measured (yet, or by this instance). */
    double measuredRate(long activityId) {
        Line line = lines.get(activityId);
        return line == null ? -1 : line.rate().perSecond();
    }

    /** Forgets lines that are no longer live. */
    void retain(java.util.Set<Long> live) {
        lines.keySet().retainAll(live);
    }

    private long longestWait(World world) {
        long longest = 0;
        for (Line line : lines(world).toList()) {
            long wait = line.last().waitEstimateSeconds();
            if (wait < 0) {
                return -1;
            }
            longest = Math.max(longest, wait);
        }
        return longest;
    }

    @Override
    public List<QueueFigures.LineReading> lines() {
        return lines.values().stream().map(Line::last).toList();
    }
}
