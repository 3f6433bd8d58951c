package seckill.ordering.api;

import java.util.Optional;

/**
 * The ordering module's door for activities: register one (ledger rows for the activity and its
 * stock) and look one up. Lookups are served from memory after the first read.
 */
public interface ActivityCatalog {

    Activity register(NewActivity activity);

    Optional<Activity> find(long activityId);

    /** Ids of activities that end after {@code endedAfter} (live ones and those in their grace period). */
    java.util.List<Long> endingAfter(java.time.Instant endedAfter);
}
