package seckill.reservation;

import java.time.Clock;
import java.time.Duration;
import java.util.function.Supplier;

import org.eclipse.microprofile.config.Config;
import seckill.redis.CoalescingSettings;
import seckill.redis.ReplicaAcks;

/**
 * The reservation module's settings, read once: the consumer group created on every stream
 * ({@code seckill.reservation.consumer-group}), how long a script call may wait for Redis
 * ({@code seckill.redis.timeout-millis}), the node id lease ({@code seckill.reservation.node-lease-seconds})
 * how reservation scripts are batched ({@code seckill.redis.coalescing.*}) and how many replicas must
 * acknowledge a reservation before it is answered ({@code seckill.redis.min-replica-acks}, a hot
 * switch: {@link #acks()} is what is in force now), and whether the coalesced script records events in
 * one packed field ({@code seckill.reservation.packed-events}, default true; false writes the named
 * fields that instances from before issue #35's second step read: for a rolling upgrade from them),
 * and whether it records all of a call's reservations in one stream entry
 * ({@code seckill.reservation.one-entry-per-call}, default true; false writes one entry per reservation,
 * which instances from before issue #35's third step read: for a rolling upgrade from them).
 */
record ReservationSettings(String consumerGroup, long timeoutMillis, Duration nodeLease, CoalescingSettings coalescing,
                           Supplier<ReplicaAcks> acksInForce, boolean packedEvents, boolean oneEntryPerCall) {

    ReservationSettings(String consumerGroup, long timeoutMillis, Duration nodeLease, CoalescingSettings coalescing,
                        Supplier<ReplicaAcks> acksInForce, boolean packedEvents) {
        this(consumerGroup, timeoutMillis, nodeLease, coalescing, acksInForce, packedEvents, true);
    }

    /** Settings with a fixed replica requirement (a stack assembled without MicroProfile Config). */
    ReservationSettings(String consumerGroup, long timeoutMillis, Duration nodeLease, CoalescingSettings coalescing,
                        ReplicaAcks acks) {
        this(consumerGroup, timeoutMillis, nodeLease, coalescing, () -> acks, true);
    }

    ReservationSettings(String consumerGroup, long timeoutMillis, Duration nodeLease, CoalescingSettings coalescing,
                        Supplier<ReplicaAcks> acksInForce) {
        this(consumerGroup, timeoutMillis, nodeLease, coalescing, acksInForce, true);
    }

    /** The replicas a reservation (or a worker's batch) must reach now. */
    ReplicaAcks acks() {
        return acksInForce.get();
    }

    static ReservationSettings from(Config config, Clock clock) {
        return new ReservationSettings(
                config.getOptionalValue("seckill.reservation.consumer-group", String.class).orElse("ordering"),
                config.getOptionalValue("seckill.redis.timeout-millis", Long.class).orElse(2000L),
                Duration.ofSeconds(config.getOptionalValue("seckill.reservation.node-lease-seconds", Long.class)
                        .orElse(30L)),
                CoalescingSettings.from(config),
                ReplicaAcks.inForce(config, clock),
                config.getOptionalValue("seckill.reservation.packed-events", Boolean.class).orElse(true),
                config.getOptionalValue("seckill.reservation.one-entry-per-call", Boolean.class).orElse(true));
    }
}
