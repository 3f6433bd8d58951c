package seckill.reservation.api;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * The reservation module's door for support: what Redis holds of one reservation, read without
 * changing anything (the buyer's record in their home bucket, the bucket's minted ids, the event's
 * stream entry and its delivery state in the consumer group, the bucket's set of refilled ids).
 * Redis failures surface as {@link ReservationUnavailable}.
 */
public interface ReservationTrail {

    /**
     * Follows {@code id} through Redis. {@code buyer} is the buyer when another layer knows it (the
     * ledger); otherwise it is read from the bucket's minted ids or the stream entry. {@code position}
     * is the event's place when the ledger recorded it; otherwise the entry is looked for in a bounded
     * range of the stream around the instant the id was minted. {@code buckets} is the SKU's split.
     */
    RedisTrace follow(ReservationId id, OptionalLong buyer, int buckets, Optional<EventPosition> position);
}
