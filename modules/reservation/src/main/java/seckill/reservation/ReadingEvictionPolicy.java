package seckill.reservation;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import seckill.redis.RedisScript;
import seckill.reservation.api.EvictionStatus;
import seckill.reservation.api.ReservationUnavailable;

/**
 * Reads {@code maxmemory_policy} from {@code INFO} (allowed where {@code CONFIG} is renamed away, as on
 * managed Redis) of the master, or of every node of a cluster (a replica promoted later must not evict
 * either). A policy is only sampled, every 2 s or so: one set and set back between two readings is
 * not seen, but what it evicted is, in the server's {@code evicted_keys} (counted since it started,
 * its {@code run_id}): any key evicted since the previous reading of that server is unsafe too.
 */
@ApplicationScoped
class ReadingEvictionPolicy implements EvictionStatus {

    static final String SAFE = "noeviction";

    private final UnifiedJedis redis;
    /** Each server's {@code evicted_keys} as last read, by its {@code run_id}. */
    private final Map<String, Long> evictedSeen = new ConcurrentHashMap<>();

    @Inject
    ReadingEvictionPolicy(UnifiedJedis redis) {
        this.redis = redis;
    }

    @Override
    public Optional<String> unsafePolicy() {
        return unsafe(false);
    }

    @Override
    public Optional<String> unsafeOrUnread() {
        return unsafe(true);
    }

    /** With {@code strict}, a node whose policy is not read is named unsafe instead of skipped. */
    private Optional<String> unsafe(boolean strict) {
        Map<String, ConnectionPool> nodes = redis instanceof JedisCluster cluster ? cluster.getClusterNodes()
                : redis instanceof RedisClusterClient client ? client.getClusterNodes() : null;
        if (nodes == null) {
            try {
                return judged(redis.info());
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
                Optional<String> unsafe = judged(RedisScript.text(connection.executeCommand(
                        new CommandArguments(Protocol.Command.INFO))));
                answered++;
                if (unsafe.isPresent()) {
                    return Optional.of(unsafe.get() + " on " + node.getKey());
                }
            } catch (JedisDataException refused) {
                // the node answers but will not say (INFO refused): it may be evicting
                if (strict) {
                    return Optional.of("maxmemory-policy unread on " + node.getKey());
                }
            } catch (RuntimeException unreachable) {
                // a dead node (or one the cluster forgot) is judged when it answers again: it evicts
                // nothing meanwhile, and waiting for it would keep a halt that nothing could lift
            }
        }
        if (answered == 0) {
            throw new ReservationUnavailable("reading the eviction policy failed: no node answered", null);
        }
        return Optional.empty();
    }

    /** One server's {@code INFO}: its policy when it can evict, else keys it evicted since the last reading. */
    private Optional<String> judged(String info) {
        Optional<String> policy = evicting(info).map(p -> "maxmemory-policy " + p);
        Optional<String> run = field(info, "run_id");
        Optional<Long> evicted = field(info, "evicted_keys").flatMap(ReadingEvictionPolicy::number);
        if (run.isEmpty() || evicted.isEmpty()) {
            return policy;
        }
        // the first reading of a server (this instance just started, a failover, a restart) is its baseline
        Long before = evictedSeen.put(run.get(), evicted.get());
        if (policy.isEmpty() && before != null && evicted.get() > before) {
            return Optional.of("a policy set and set back (evicted_keys +" + (evicted.get() - before)
                    + " since the last reading)");
        }
        return policy;
    }

    private static Optional<Long> number(String text) {
        try {
            return Optional.of(Long.parseLong(text));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> field(String info, String name) {
        String prefix = name + ":";
        return info.lines().filter(l -> l.startsWith(prefix)).map(l -> l.substring(prefix.length()).trim()).findFirst();
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
