package seckill.reservation;

import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;
import seckill.redis.RedisScript;
import seckill.reservation.api.EvictionStatus;
import seckill.reservation.api.ReservationUnavailable;

/**
 * Reads {@code maxmemory_policy} from {@code INFO memory} (allowed where {@code CONFIG} is renamed
 * away, as on managed Redis) of the master, or of every node of a cluster (a replica promoted later
 * must not evict either).
 */
@ApplicationScoped
class ReadingEvictionPolicy implements EvictionStatus {

    static final String SAFE = "noeviction";

    private final UnifiedJedis redis;

    @Inject
    ReadingEvictionPolicy(UnifiedJedis redis) {
        this.redis = redis;
    }

    @Override
    public Optional<String> unsafePolicy() {
        return unsafe(redis);
    }

    static Optional<String> unsafe(UnifiedJedis redis) {
        Map<String, ConnectionPool> nodes = redis instanceof JedisCluster cluster ? cluster.getClusterNodes()
                : redis instanceof RedisClusterClient client ? client.getClusterNodes() : null;
        if (nodes == null) {
            try {
                return policy(redis.info("memory")).filter(p -> !SAFE.equals(p)).map(p -> "maxmemory-policy " + p);
            } catch (JedisException e) {
                throw new ReservationUnavailable("reading the eviction policy failed", e);
            }
        }
        int answered = 0;
        for (Map.Entry<String, ConnectionPool> node : nodes.entrySet()) {
            try (Connection connection = node.getValue().getResource()) {
                Optional<String> policy = policy(RedisScript.text(connection.executeCommand(
                        new CommandArguments(Protocol.Command.INFO).add("memory"))));
                answered++;
                if (policy.isPresent() && !SAFE.equals(policy.get())) {
                    return Optional.of("maxmemory-policy " + policy.get() + " on " + node.getKey());
                }
            } catch (RuntimeException unreachable) {
                // a dead node is judged when it answers again
            }
        }
        if (answered == 0) {
            throw new ReservationUnavailable("reading the eviction policy failed: no node answered", null);
        }
        return Optional.empty();
    }

    /** The {@code maxmemory_policy} line of an {@code INFO memory} answer. */
    static Optional<String> policy(String info) {
        return info.lines().filter(l -> l.startsWith("maxmemory_policy:"))
                .map(l -> l.substring("maxmemory_policy:".length()).trim()).findFirst();
    }
}
