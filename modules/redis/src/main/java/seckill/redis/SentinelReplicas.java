package seckill.redis;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicBoolean;

import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The replicas the Sentinels list for the master they watch, counted as they hold them up (neither
 * {@code s_down}, {@code o_down} nor {@code disconnected}: every one of them is a node the Sentinels
 * may promote, or one they will point at the node they promote), plus the one a failover under way
 * has {@code promoted}, up or not (frozen right after its promotion it still wins once it thaws: seed 4
 * on {@code sentinel}, docs/chaos.md). A write survives a failover only if
 * the promoted replica holds it, and {@code WAIT} cannot tell which replicas acknowledged, so
 * {@code seckill.redis.min-replica-acks: all} waits for this many (the deposed master's case,
 * docs/chaos.md: one replica still following a master the Sentinels had replaced acknowledged writes
 * the promoted one never got). Asked again at most every half second, off the caller's thread, so a
 * purchase never waits on a Sentinel; the last answer stands while none answers.
 */
final class SentinelReplicas {

    private static final System.Logger LOG = System.getLogger(SentinelReplicas.class.getName());
    private static final long ASK_EVERY_MILLIS = 500;
    private static final int SENTINEL_TIMEOUT_MILLIS = 300;

    private final SentinelAddress address;
    private final Clock clock;
    private final AtomicBoolean asking = new AtomicBoolean();
    private volatile int up;
    private volatile long askedAt;

    SentinelReplicas(SentinelAddress address, Clock clock) {
        this.address = address;
        this.clock = clock;
        this.askedAt = clock.millis();
        // the first count on the caller's thread: there is none to fall back on yet
        this.up = ask().orElse(-1);
    }

    /** The replicas up as last counted, -1 while no Sentinel has answered; counts again in the background when due. */
    int up() {
        long now = clock.millis();
        if (now - askedAt >= ASK_EVERY_MILLIS && asking.compareAndSet(false, true)) {
            askedAt = now;
            Thread.ofVirtual().name("sentinel-replicas").start(() -> {
                try {
                    ask().ifPresent(count -> up = count);
                } finally {
                    asking.set(false);
                }
            });
        }
        return up;
    }

    /** The first Sentinel that answers; empty when none does. */
    private OptionalInt ask() {
        for (HostAndPort sentinel : address.sentinels()) {
            try (Jedis jedis = new Jedis(sentinel, DefaultJedisClientConfig.builder()
                    .timeoutMillis(SENTINEL_TIMEOUT_MILLIS).build())) {
                return OptionalInt.of(countUp(jedis.sentinelReplicas(address.masterName())));
            } catch (JedisException unreachable) {
                LOG.log(System.Logger.Level.DEBUG, () -> "Sentinel " + sentinel + " did not list the replicas: " + unreachable.getMessage());
            }
        }
        return OptionalInt.empty();
    }

    /** How many of {@code SENTINEL REPLICAS}' entries the Sentinel holds up, or has promoted. */
    static int countUp(List<Map<String, String>> replicas) {
        int up = 0;
        for (Map<String, String> replica : replicas) {
            String flags = replica.getOrDefault("flags", "");
            boolean down = flags.contains("s_down") || flags.contains("o_down") || flags.contains("disconnected");
            if (!down || flags.contains("promoted")) {
                up++;
            }
        }
        return up;
    }
}
