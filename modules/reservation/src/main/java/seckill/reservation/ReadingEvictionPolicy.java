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
        return unsafe(redis, false);
    }

    @Override
    public Optional<String> unsafeOrUnread() {
        return unsafe(redis, true);
    }

    static Optional<String> unsafe(UnifiedJedis redis) {
        return unsafe(redis, false);
    }

    /** With {@code strict}, a node whose policy is not read is named unsafe instead of skipped. */
    static Optional<String> unsafe(UnifiedJedis redis, boolean strict) {
        Map<String, ConnectionPool> nodes = redis instanceof JedisCluster cluster ? cluster.getClusterNodes()
                : redis instanceof RedisClusterClient client ? client.getClusterNodes() : null;
        if (nodes == null) {
            try {
                return evicting(redis.info("memory")).map(p -> "maxmemory-policy " + p);
            } catch (JedisException e) {
                if (strict) {
                    return Optional.of("maxmemory-policy unread");
                }
                throw new ReservationUnavailable("reading the eviction policy failed", e);
            }
        }
        int answered = 0;
        for (Map.Entry<String, ConnectionPool> node : nodes.entrySet()) {
            try (Connection connection = node.getValue().getResource()) {
                Optional<String> policy = evicting(RedisScript.text(connection.executeCommand(
                        new CommandArguments(Protocol.Command.INFO).add("memory"))));
                answered++;
                if (policy.isPresent()) {
                    return Optional.of("maxmemory-policy " + policy.get() + " on " + node.getKey());
                }
            } catch (RuntimeException unreachable) {
                if (strict) {
                    return Optional.of("maxmemory-policy unread on " + node.getKey());
                }
                // a dead node is judged when it answers again
            }
        }
        if (answered == 0) {
            throw new ReservationUnavailable("reading the eviction policy failed: no node answered", null);
        }
        return Optional.empty();
    }

    /**
     * The policy of an {@code INFO memory} answer when it can evict: not {@code noeviction}, under a
     * memory limit. Without one ({@code maxmemory:0}) Redis evicts nothing whatever the policy says; a
     * limit set later is seen by the next reading (every 2 s).
     */
    static Optional<String> evicting(String info) {
        boolean limited = info.lines().filter(l -> l.startsWith("maxmemory:"))
                .map(l -> !"0".equals(l.substring("maxmemory:".length()).trim())).findFirst().orElse(true);
        return limited ? policy(info).filter(p -> !SAFE.equals(p)) : Optional.empty();
    }

    /** The {@code maxmemory_policy} line of an {@code INFO memory} answer. */
    static Optional<String> policy(String info) {
        return info.lines().filter(l -> l.startsWith("maxmemory_policy:"))
                .map(l -> l.substring("maxmemory_policy:".length()).trim()).findFirst();
    }
}
