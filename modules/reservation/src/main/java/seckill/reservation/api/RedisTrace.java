package seckill.reservation.api;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What Redis holds of one reservation ({@link ReservationTrail}).
 *
 * @param buyer       the buyer the reservation belongs to, as far as any Redis key says ({@code minted})
 * @param mintedTo    the buyer the unit's bucket minted the id to (its {@code served} hash), if it still lists it
 * @param buyerRecord the buyer's dedupe record in their home bucket; empty when the buyer is unknown
 * @param entry       the event's stream entry and its state in the consumer group
 * @param refilled    whether the unit's bucket lists the id among its refills (the unit went back to Redis)
 * @param preheated   whether the unit's bucket has its stock key (false: expired, or lost by Redis)
 */
public record RedisTrace(OptionalLong buyer, OptionalLong mintedTo, Optional<BuyerRecord> buyerRecord,
                         StreamEntry entry, boolean refilled, boolean preheated) {

    /**
     * The buyer's dedupe record ({@code HGET <buyers> <buyer>} of the home bucket): the id Redis
     * holds for them, a pending claim while a click is served across buckets, or nothing (never
     * reserved there, or released by a refill).
     */
    public record BuyerRecord(String key, int homeBucket, Optional<String> value, boolean holdsThis) {
    }

    /** Where the event stands in its stream's consumer group. */
    public enum EntryState {
        /** Recorded, not yet handed to any ordering worker. */
        UNDELIVERED,
        /** Handed to a worker ({@code consumer}), not acknowledged: being settled, or its worker died. */
        PENDING,
        /** Handed out and acknowledged (settled in the ledger); the entry may be trimmed since. */
        ACKNOWLEDGED,
        /** No entry found (not in the stream where looked, and not known to the group). */
        NOT_FOUND,
        /** The stream or its consumer group does not exist (expired, or lost by Redis). */
        STREAM_MISSING
    }

    /**
     * The event's entry: {@code id} when found (or known from the ledger), {@code consumer},
     * {@code deliveries} and {@code idleMillis} while pending ({@code XPENDING}), {@code fields} as
     * recorded when the entry is still in the stream ({@code XRANGE}).
     */
    public record StreamEntry(String stream, Optional<String> id, EntryState state, Optional<String> consumer,
                              long deliveries, long idleMillis, Map<String, String> fields,
                              Optional<String> lastDeliveredId) {
    }
}
