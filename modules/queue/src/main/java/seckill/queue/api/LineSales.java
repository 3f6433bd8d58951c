package seckill.queue.api;

import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;

/**
 * What the line needs to know about the sales, supplied by the deployable (the catalogue is not the queue's):
 * which activities have a line to move, and the units left to sell, read through reservation's api.
 */
public interface LineSales {

    /** An activity whose line may move: it has not ended. */
    record LiveSale(long activityId, QueueWindow window) {
    }

    /** Activities that end after {@code now} and start before {@code startsBefore}. */
    List<LiveSale> live(Instant now, Instant startsBefore);

    /** Units left unreserved over the activity's SKUs; empty when not known (not preheated, Redis silent). */
    OptionalLong unitsLeft(long activityId);
}
