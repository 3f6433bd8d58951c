package seckill.ledger.api.catalogue;

import java.util.Optional;

import seckill.ledger.api.IdempotentRequest;
import seckill.redis.World;

/**
 * The ledger's activity catalogue, the first thing a purchase asks: register an activity (ledger rows
 * for the activity and its stock) and look one up. Lookups are served from memory after the first read.
 * <p>
 * Per world (issue #34, docs/rehearsal.md): a lookup by id is answered by the ledger of the id's world
 * ({@link World#of}), the real ledger or the shadow one of rehearsals; without a shadow ledger a rehearsal id
 * is unknown. What takes no id (registering, the activities ending after a time) is the real world's unless a
 * {@link World} is named.
 */
public interface ActivityCatalog {

    /** Registers a real activity. */
    Activity register(NewActivity activity);

    /**
     * Registers an activity in the ledger of {@code world}, its id from that world's range.
     *
     * @throws IllegalStateException for {@link World#REHEARSAL} when no shadow ledger is configured
     */
    Activity register(World world, NewActivity activity);

    /**
     * Registers the activity once per {@link IdempotentRequest#key()}: a repeat of the same request
     * returns the activity the first one registered, writing nothing.
     *
     * @throws IdempotentRequest.Conflict when the key was used for a different request
     */
    Registration register(NewActivity activity, IdempotentRequest request);

    /**
     * {@link #register(NewActivity, IdempotentRequest)} in the ledger of {@code world}: the idempotency record is
     * kept in that world's ledger, beside the activity.
     *
     * @throws IllegalStateException for {@link World#REHEARSAL} when no shadow ledger is configured
     */
    default Registration register(World world, NewActivity activity, IdempotentRequest request) {
        if (world == World.REAL) {
            return register(activity, request);
        }
        throw new IllegalStateException("this catalogue registers no rehearsal");
    }

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

    /** Ids of real activities that end after {@code endedAfter} (live ones and those in their grace period). */
    default java.util.List<Long> endingAfter(java.time.Instant endedAfter) {
        return endingAfter(World.REAL, endedAfter);
    }

    /** {@link #endingAfter(java.time.Instant)} of one world; none of {@link World#REHEARSAL} without a shadow ledger. */
    java.util.List<Long> endingAfter(World world, java.time.Instant endedAfter);
}
