package seckill.ledger.api.catalogue;

import java.util.Optional;

import seckill.ledger.api.IdempotentRequest;

/**
 * The ledger's activity catalogue, the first thing a purchase asks: register an activity (ledger rows
 * for the activity and its stock) and look one up. Lookups are served from memory after the first read.
 */
public interface ActivityCatalog {

    Activity register(NewActivity activity);

    /**
     * Registers the activity once per {@link IdempotentRequest#key()}: a repeat of the same request
     * returns the activity the first one registered, writing nothing.
     *
     * @throws IdempotentRequest.Conflict when the key was used for a different request
     */
    Registration register(NewActivity activity, IdempotentRequest request);

    /** An activity, and whether this call registered it ({@code false}: an earlier request did). */
    record Registration(Activity activity, boolean created) {
    }

    /** An activity, from memory when known; an id found unknown a moment ago may be answered from memory too. */
    Optional<Activity> find(long activityId);

    /**
     * An activity as the ledger has it now: from memory only when known (activities never change),
     * never from a remembered miss. What decides an outcome (an event given up on as unknown) asks this.
     */
    Optional<Activity> findInLedger(long activityId);

    /** Ids of activities that end after {@code endedAfter} (live ones and those in their grace period). */
    java.util.List<Long> endingAfter(java.time.Instant endedAfter);
}
