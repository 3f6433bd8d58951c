package seckill.drill.chaos;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.UnifiedJedis;

/**
 * The Redis of a chaos run on a topology with replicas ({@link SentinelGroup}, {@link OwnCluster}):
 * started by the runner on free loopback ports, named to the instances by URI and settings, faulted
 * node by node ({@code MASTER_KILL}, {@code REPLICA_FREEZE}, {@code REDIS_PAUSE} of every master),
 * read by the checker, and stopped by PID. A shard is a master with its replicas: the Sentinel group
 * has one, the cluster three (numbered by the slot range they serve, so a shard keeps its number
 * across failovers).
 */
sealed interface ReplicatedRedis extends AutoCloseable permits SentinelGroup, OwnCluster {

    /** How long the runner waits for a failover, a rejoin or the whole topology to be back. */
    Duration RECOVERY = Duration.ofSeconds(60);

    /** What {@code seckill.redis.uri} is for every instance. */
    String serviceUri();

    /** Settings the instances run with on this topology ({@code -D} lines). */
    List<String> serviceProperties();

    /** A client the checker reads the shelf with (a plain client to the master, or a cluster client). */
    UnifiedJedis reader();

    int shards();

    /** The node serving shard {@code shard} as master now, if one answers. */
    Optional<RedisNode> master(int shard);

    /**
     * The live node serving, as master now, the slot {@code key} hashes to (its hash tag's): on the
     * cluster the master owning that slot, behind Sentinel the master the Sentinels name.
     */
    Optional<RedisNode> masterOf(String key);

    /** Every shard's master now, each once (a shard with no live master is left out). */
    default List<RedisNode> masters() {
        List<RedisNode> masters = new ArrayList<>();
        for (int shard = 0; shard < shards(); shard++) {
            master(shard).filter(m -> !masters.contains(m)).ifPresent(masters::add);
        }
        return masters;
    }

    /** The {@code which}-th live replica of shard {@code shard} now (modulo how many there are), if any. */
    Optional<RedisNode> replica(int shard, int which);

    /** Every data node (no Sentinel), masters and replicas, as started. */
    List<RedisNode> dataNodes();

    /** {@code CLIENT PAUSE <millis> ALL} on every shard's master that answers; the masters paused. */
    default List<RedisNode> pauseMasters(long millis) {
        List<RedisNode> paused = new ArrayList<>();
        for (int shard = 0; shard < shards(); shard++) {
            master(shard).ifPresent(m -> {
                try (Jedis jedis = m.connect()) {
                    jedis.sendCommand(Protocol.Command.CLIENT, "PAUSE", Long.toString(millis), "ALL");
                    paused.add(m);
                } catch (RuntimeException notNow) {
                    // a master that does not answer is not paused by us
                }
            });
        }
        return paused;
    }

    /** {@code CLIENT UNPAUSE} on every data node that answers. */
    default void unpause() {
        dataNodes().stream().filter(RedisNode::answers).forEach(n -> {
            try (Jedis jedis = n.connect()) {
                jedis.sendCommand(Protocol.Command.CLIENT, "UNPAUSE");
            } catch (RuntimeException notNow) {
                // best effort: a pause also lapses by itself
            }
        });
    }

    /**
     * Brings a killed master back as an operator would: waits until its shard has failed over to
     * another node (restarting an empty master before that would bring it back with no data), starts
     * it again on its port and waits until it is a replica in sync. What happened, for the history.
     */
    String rejoin(RedisNode killed);

    /** Every shard has a master and every replica it was started with is in sync (and Sentinel a quorum). */
    boolean whole();

    /** Continues every frozen node, brings back every killed one ({@link #rejoin}), waits until {@link #whole()}. */
    String heal();

    @Override
    void close();

    /** Waits for a condition, at most {@code timeout}; whether it came. */
    static boolean await(Duration timeout, BooleanSupplier condition) {
        Instant deadline = Instant.now().plus(timeout);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                return false;
            }
            RedisNode.pause(100);
        }
        return true;
    }
}
