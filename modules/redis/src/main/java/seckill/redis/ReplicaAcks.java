package seckill.redis;

import java.util.function.Function;

import org.eclipse.microprofile.config.Config;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;

/**
 * How many replicas must acknowledge a reservation's writes before a buyer is told it exists, and
 * before the ordering workers settle its event ({@code seckill.redis.min-replica-acks}; 1 by default
 * with a {@code redis-sentinel://} URI, 0 otherwise), and how long to wait for them
 * ({@code seckill.redis.replica-ack-timeout-millis}, 50).
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

    /**
     * Sends {@code writes}, then {@code WAIT} for the required replicas, in one pipeline, so on one
     * connection: {@code WAIT} counts only the writes of the connection that sends it, and every
     * write the master replicated before them. Too few acknowledgements in time throw
     * {@link Missing}: the writes are on this master but would not survive its loss.
     */
    public <T> T await(UnifiedJedis redis, Function<Pipeline, Response<T>> writes) {
        try (AbstractPipeline pipeline = redis.pipelined()) {
            if (!(pipeline instanceof Pipeline onOneConnection)) {
                throw new IllegalStateException("seckill.redis.min-replica-acks needs a single master (redis:// or "
                        + "redis-sentinel://); a cluster client cannot WAIT on the connection that wrote");
            }
            Response<T> reply = writes.apply(onOneConnection);
            Response<Long> acknowledged = onOneConnection.waitReplicas(replicas, timeoutMillis);
            onOneConnection.sync();
            T result = reply.get();
            long count = acknowledged.get();
            if (count < replicas) {
                throw new Missing(count, this);
            }
            return result;
        }
    }

    /** Fewer replicas than required acknowledged the writes in time: they may not survive a failover. */
    public static final class Missing extends RuntimeException {
        public Missing(long acknowledged, ReplicaAcks required) {
            super(acknowledged + " of " + required.replicas() + " replica(s) acknowledged within "
                    + required.timeoutMillis() + " ms");
        }
    }
}
