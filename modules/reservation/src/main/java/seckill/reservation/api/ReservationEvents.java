package seckill.reservation.api;

import java.time.Duration;
import java.util.List;

import seckill.redis.World;

/**
 * The reservation module's door for consumers of reservation events. Every preheated bucket has
 * one stream and one consumer group; an event stays pending until {@link #acknowledge} is called,
 * so a consumer that dies before committing loses nothing. The read methods hand out only events
 * the required replicas hold ({@code seckill.redis.min-replica-acks}); otherwise they throw
 * {@link UnreplicatedEvents} and leave the events pending with the consumer, for
 * {@link #readOwnPending} to hand out again.
 * <p>
 * Reading counts stream entries: an entry of a coalesced call records all its reservations (issue #35),
 * so one read of {@code count} entries may hand out more events, those of one entry side by side with the
 * same {@link ReservationEvent#position()}. An entry is acknowledged as a whole: only once every event of it is
 * settled, so a consumer acknowledges a position only after all its events' outcomes are committed (a
 * crash in between delivers all of them again; the ledger's unique keys settle each once).
 */
public interface ReservationEvents {

    /** Streams of the real sales' SKUs whose keys have not expired, as the stream registry lists them. */
    default List<String> activeStreams() {
        return activeStreams(World.REAL);
    }

    /**
     * Streams of one world's SKUs whose keys have not expired, as that world's stream registry lists them
     * ({@code sk:streams}, or {@code rh:streams} for rehearsals: docs/rehearsal.md).
     */
    List<String> activeStreams(World world);

    /** {@link #registerStreams(World, List)} of the real sales. */
    default List<String> registerStreams(List<String> streams) {
        return registerStreams(World.REAL, streams);
    }

    /**
     * Repairs one world's stream registry from what must exist: every stream of {@code streams} that exists
     * in Redis and is missing from the registry is put back (scored by its own expiry), and members
     * whose expiry has passed (their activity ended, its keys are gone) are dropped. Idempotent.
     *
     * @return the streams that were missing and are registered again
     * @throws IllegalArgumentException for a stream of another world (never listed where that world's
     *                                  workers would read it)
     */
    List<String> registerStreams(World world, List<String> streams);

    /** New events for this consumer, those of at most {@code count} entries. */
    List<ReservationEvent> readNew(String stream, String consumer, int count);

    /** Events already delivered to this consumer and not yet acknowledged (for a restarted consumer). */
    default List<ReservationEvent> readOwnPending(String stream, String consumer, int count) {
        return readOwnPending(stream, consumer, count, "0-0");
    }

    /**
     * As {@link #readOwnPending(String, String, int)}, the entries after {@code afterEntryId} only: a
     * consumer pages through what it holds, each entry once per pass (every read is a delivery).
     */
    List<ReservationEvent> readOwnPending(String stream, String consumer, int count, String afterEntryId);

    /** Events pending longer than {@code minIdle} (their consumer died or is stuck), now owned by {@code consumer}. */
    List<ReservationEvent> reclaimIdle(String stream, String consumer, Duration minIdle, int count);

    /** Marks entries as settled; call only after the outcome of every event they record is committed. */
    void acknowledge(List<EventPosition> positions);

    /** Copies an event that can never be settled to its bucket's dead-letter stream. */
    void deadLetter(ReservationEvent event, String reason);

    /**
     * Removes entries that are delivered and acknowledged: everything before the oldest pending id,
     * or before the group's last delivered id when nothing is pending; atomically, so an entry a
     * worker is settling is never removed. Returns how many were removed.
     */
    long trimSettled(String stream);

    /** The event stream of bucket {@code bucket} of a SKU split into {@code buckets}. */
    String streamOf(long activityId, long skuId, int bucket, int buckets);

    /** Entries delivered but not yet acknowledged on a stream (an entry may record several events). */
    long pending(String stream);

    /** Entries recorded but never delivered to the group on a stream (an entry may record several events). */
    long undelivered(String stream);

    /** Entries recorded on any live stream and not yet settled (pending or never delivered): 0 when every event is. */
    default long unsettled() {
        long total = 0;
        for (String stream : activeStreams()) {
            total += pending(stream) + undelivered(stream);
        }
        return total;
    }

    /**
     * Bucket {@code bucket} of a SKU split into {@code buckets}: its figures read in one atomic step,
     * then every event up to that instant's last one that is still unsettled, read {@code pageSize}
     * at a time, so a backlog of any size is counted exactly.
     */
    BucketSnapshot snapshot(long activityId, long skuId, int bucket, int buckets, int pageSize);

    /**
     * Which of {@code reservationIds} bucket {@code bucket} of a SKU has refilled (its set of refilled
     * reservation ids). Read after the ledger, so a refill the ledger marked applied and that is
     * missing here was lost by Redis.
     */
    java.util.Set<String> refilledAmong(long activityId, long skuId, int bucket, int buckets,
                                        List<String> reservationIds);
}
