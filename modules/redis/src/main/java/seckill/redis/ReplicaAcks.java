package seckill.redis;

import org.eclipse.microprofile.config.Config;

/**
 * How many replicas must acknowledge a reservation's writes before a buyer is told it exists
 * ({@code seckill.redis.min-replica-acks}; 1 by default with a {@code redis-sentinel://} URI, 0
 * otherwise) and how long to wait for them ({@code seckill.redis.replica-ack-timeout-millis}, 50).
 * A master that dies loses the writes its replicas had not received; acknowledged ones survive it.
 */
public record ReplicaAcks(int replicas, long timeoutMillis) {

    public static final ReplicaAcks NONE = new ReplicaAcks(0, 0);

    public static ReplicaAcks from(Config config) {
        boolean sentinel = config.getOptionalValue("seckill.redis.uri", String.class)
                .filter(uri -> uri.startsWith("redis-sentinel://")).isPresent();
        return new ReplicaAcks(
                config.getOptionalValue("seckill.redis.min-replica-acks", Integer.class).orElse(sentinel ? 1 : 0),
                config.getOptionalValue("seckill.redis.replica-ack-timeout-millis", Long.class).orElse(50L));
    }

    /** Fewer replicas than required acknowledged the writes in time: they may not survive a failover. */
    public static final class Missing extends RuntimeException {
        public Missing(long acknowledged, ReplicaAcks required) {
            super(acknowledged + " of " + required.replicas() + " replica(s) acknowledged within "
                    + required.timeoutMillis() + " ms");
        }
    }
}
