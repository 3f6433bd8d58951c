package seckill.redis;

import java.time.Clock;
import java.util.function.Function;
import java.util.function.Supplier;

import org.eclipse.microprofile.config.Config;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * How many replicas must acknowledge a reservation's writes before a buyer is told it exists, and
 * before the ordering workers settle its event ({@code seckill.redis.min-replica-acks}; {@code all} by
 * default with a {@code redis-sentinel://} URI, 0 otherwise), and how long to wait for them
 * ({@code seckill.redis.replica-ack-timeout-millis}, 50).
 * A master that dies loses the writes its replicas had not received; acknowledged ones survive it only
 * if the replica the Sentinels promote is among those that acknowledged. {@code WAIT} counts
 * acknowledgements without naming who gave them, so behind Sentinel {@code all} requires every replica
 * the Sentinels hold up ({@link SentinelReplicas}, at least one): a number below that is an operator's
 * conscious risk (a master the Sentinels have already replaced can have its writes acknowledged by a
 * replica that still follows it, and lose them).
 */
public record ReplicaAcks(int replicas, long timeoutMillis) {

    public static final ReplicaAcks NONE = new ReplicaAcks(0, 0);

    /** {@code seckill.redis.min-replica-acks}' value for every replica the Sentinels hold up. */
    public static final String ALL = "all";

    /** How often {@link #inForce} reads the requirement again: an operator's change applies within it. */
    private static final long REREAD_MILLIS = 500;

    /**
     * The requirement as a hot switch: {@code seckill.redis.min-replica-acks} is read again every half
     * second (it may be set in {@code config/switches.yaml}), so an operator can consciously accept
     * fewer acknowledgements, e.g. 0 while the last replica is being replaced, without a restart.
     * Read on the caller's thread at most once per period; a bad value keeps the previous one. With
     * {@code all} the number follows the replicas the Sentinels hold up, counted in the background.
     */
    public static Supplier<ReplicaAcks> inForce(Config config, Clock clock) {
        return new Supplier<>() {
            private final SentinelReplicas group = group(config, clock);
            private volatile ReplicaAcks current = from(config, group);
            private volatile long readAt = clock.millis();

            @Override
            public ReplicaAcks get() {
                long now = clock.millis();
                if (now - readAt >= REREAD_MILLIS) {
                    readAt = now;
                    try {
                        current = from(config, group);
                    } catch (RuntimeException badValue) {
                        // keeps what is in force until the value is fixed
                    }
                }
                return current;
            }
        };
    }

    /** The requirement as configured now; {@code all} counted once, on this thread. */
    public static ReplicaAcks from(Config config) {
        return from(config, group(config, Clock.systemUTC()));
    }

    /** One count per Sentinel group and process: admission, the line and reservations wait for the same replicas. */
    private static final java.util.Map<String, SentinelReplicas> GROUPS = new java.util.concurrent.ConcurrentHashMap<>();

    private static SentinelReplicas group(Config config, Clock clock) {
        return config.getOptionalValue("seckill.redis.uri", String.class)
                .filter(SentinelAddress::isSentinel)
                .map(uri -> GROUPS.computeIfAbsent(uri, u -> new SentinelReplicas(SentinelAddress.parse(u), clock)))
                .orElse(null);
    }

    private static ReplicaAcks from(Config config, SentinelReplicas group) {
        String required = config.getOptionalValue("seckill.redis.min-replica-acks", String.class)
                .map(String::trim).orElse(group != null ? ALL : "0");
        long timeout = config.getOptionalValue("seckill.redis.replica-ack-timeout-millis", Long.class).orElse(50L);
        if (!ALL.equalsIgnoreCase(required)) {
            int replicas = Integer.parseInt(required);
            if (replicas < 0) {
                throw new IllegalArgumentException("seckill.redis.min-replica-acks must be 0 or more, or all: " + required);
            }
            return new ReplicaAcks(replicas, timeout);
        }
        if (group == null) {
            throw new IllegalStateException("seckill.redis.min-replica-acks=all needs a redis-sentinel:// URI (the"
                    + " Sentinels name the replicas); on a single Redis or a cluster give the number of replicas");
        }
        // none listed up (the last replica gone, or no Sentinel answered yet) still requires one: sales
        // halt NO_REPLICA until one is back or an operator sets 0 (LastReplicaGoneTest)
        return new ReplicaAcks(Math.max(1, group.required()), timeout);
    }

    /**
     * Sends {@code writes}, then {@code WAIT} for the required replicas, in one pipeline, so on one
     * connection: {@code WAIT} counts only the writes of the connection that sends it, and every
     * write the master replicated before them. On a cluster that connection is the one to the master
     * of {@code key}'s slot (every key of the writes shares its hash tag). Too few acknowledgements in time throw
     * {@link Missing}: the writes are on this master but would not survive its loss.
     */
    public <T> T await(UnifiedJedis redis, String key, Function<Pipeline, Response<T>> writes) {
        Connection slotMaster = slotMaster(redis, key);
        if (slotMaster != null) {
            // a cluster: every key of one call shares a hash tag, so one slot and one master; the writes
            // and their WAIT go over one connection to it (the connection goes back to its pool after)
            try (Pipeline onOneConnection = new Pipeline(slotMaster, true)) {
                return awaitOn(onOneConnection, writes);
            }
        }
        try (AbstractPipeline pipeline = redis.pipelined()) {
            if (!(pipeline instanceof Pipeline onOneConnection)) {
                throw new IllegalStateException("seckill.redis.min-replica-acks: no single connection to WAIT on with "
                        + redis.getClass().getName());
            }
            return awaitOn(onOneConnection, writes);
        }
    }

    private <T> T awaitOn(Pipeline onOneConnection, Function<Pipeline, Response<T>> writes) {
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

    /** A connection to the master of the key's slot on a cluster client; null for a single master. */
    private static Connection slotMaster(UnifiedJedis redis, String key) {
        int slot = JedisClusterCRC16.getSlot(key);
        if (redis instanceof JedisCluster cluster) {
            return cluster.getConnectionFromSlot(slot);
        }
        if (redis instanceof RedisClusterClient cluster) {
            return cluster.getConnectionFromSlot(slot);
        }
        return null;
    }

    /**
     * The replicas online (in sync, {@code INFO replication}) at the master, or on a cluster at the
     * master with the fewest: what a reservation can be acknowledged by right now. A node that does not
     * answer counts none.
     */
    public static long online(UnifiedJedis redis) {
        java.util.Map<String, ConnectionPool> nodes = redis instanceof JedisCluster cluster ? cluster.getClusterNodes()
                : redis instanceof RedisClusterClient client ? client.getClusterNodes() : null;
        if (nodes == null) {
            return online(redis.info("replication")).orElse(0L);
        }
        long fewest = Long.MAX_VALUE;
        for (ConnectionPool pool : nodes.values()) {
            try (Connection node = pool.getResource()) {
                Object info = node.executeCommand(new redis.clients.jedis.CommandArguments(Protocol.Command.INFO)
                        .add("replication"));
                java.util.Optional<Long> count = online(RedisScript.text(info));
                if (count.isPresent()) {
                    fewest = Math.min(fewest, count.get());
                }
            } catch (RuntimeException unreachable) {
                // a dead node is a replica's to replace; its slots' new master is counted when it answers
            }
        }
        return fewest == Long.MAX_VALUE ? 0 : fewest;
    }

    /** A master's online replicas from its {@code INFO replication}; empty for a replica. */
    static java.util.Optional<Long> online(String info) {
        if (!info.contains("role:master")) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(info.lines().filter(l -> l.matches("slave\\d+:.*state=online.*")).count());
    }

    /** Fewer replicas than required acknowledged the writes in time: they may not survive a failover. */
    public static final class Missing extends RuntimeException {
        public Missing(long acknowledged, ReplicaAcks required) {
            super(acknowledged + " of " + required.replicas() + " replica(s) acknowledged within "
                    + required.timeoutMillis() + " ms");
        }
    }
}
