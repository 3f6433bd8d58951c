package seckill.queue.api;

import java.util.Optional;

/** Where a buyer stands. */
public interface FindPlace {

    /**
     * The buyer's place now. {@code ticket}: the ticket they were given, if they show it; when Redis lost
     * their record (a failover), the place it names is given back. Throws {@link LineUnavailable}.
     */
    Place find(long activityId, long buyerId, QueueWindow window, Optional<String> ticket);
}
