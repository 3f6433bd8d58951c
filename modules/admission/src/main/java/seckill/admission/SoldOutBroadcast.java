package seckill.admission;

import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.UnifiedJedis;
import seckill.redis.World;

/**
 * Sold-out flags shared by every instance through Redis pub/sub (channel {@code sk:soldout}). A
 * flag is set locally first, then published; every instance applies what it hears. A lost message
 * only costs Redis calls (an instance without the flag still asks Redis and gets the true answer),
 * never a wrong answer, because a flag is only ever raised after Redis said "sold out". A rehearsal's
 * flags travel on its own world's channel, {@code rh:soldout} (issue #34, docs/rehearsal.md): nothing a
 * rehearsal sells out is published where the real sales listen, and a message is taken only from the
 * channel of its activity's world. Pub/sub ignores the logical database, so on a database other than 0 the
 * channels carry its number ({@code sk:soldout:db9}): a deployment beside this one on another database of
 * the same server has its own activities under the same ids, and its flags must never be taken here (a
 * flag taken from it answered {@code 410 SOLD_OUT} to buyers whose unit was there). The number is the
 * connection's own ({@code CLIENT INFO}), learned before the first subscription; until it is known
 * nothing is published (a lost message only costs Redis calls).
 */
@HotPathSingleton
class SoldOutBroadcast {

    private static final Logger LOG = Logger.getLogger(SoldOutBroadcast.class.getName());
    static final String CHANNEL = World.REAL.key("soldout");
    static final String REHEARSAL_CHANNEL = World.REHEARSAL.key("soldout");
    private static final java.util.regex.Pattern DATABASE = java.util.regex.Pattern.compile("(?:^| )db=(\\d+)(?: |$)");

    private final UnifiedJedis redis;
    private final long flagSeconds;

    @Inject
    SoldOutBroadcast(UnifiedJedis redis, AdmissionSettings settings) {
        this(redis, settings.soldOutFlagSeconds());
    }

    /** Marks live {@code flagSeconds} of monotonic time ({@link SoldOutFlags}): no wall clock is involved. */
    SoldOutBroadcast(UnifiedJedis redis, long flagSeconds) {
        this.redis = redis;
        this.flagSeconds = flagSeconds;
    }

    private SoldOutFlags flags;

    @jakarta.annotation.PostConstruct
    void init() {
        flags = new SoldOutFlags(System::nanoTime, java.time.Duration.ofSeconds(flagSeconds));
    }
    private volatile boolean running;
    /** The channels' suffix for this connection's database ("" on database 0 and on a cluster); null until learned. */
    private volatile String databaseSuffix;
    private volatile JedisPubSub subscription;
    private Thread listener;

    SoldOutFlags flags() {
        return flags;
    }

    void soldOut(long activityId, long skuId) {
        boolean known = flags.isSet(activityId, skuId);
        flags.set(activityId, skuId);
        if (!known) {
            publish(activityId, "S " + activityId + " " + skuId);
        }
    }

    void restocked(long activityId, long skuId) {
        flags.clear(activityId, skuId);
        publish(activityId, "R " + activityId + " " + skuId);
    }

    private void publish(long activityId, String message) {
        try {
            String suffix = databaseSuffix();
            if (suffix == null) {
                return;
            }
            redis.publish(World.of(activityId).key("soldout") + suffix, message);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "sold-out broadcast not sent; other instances will learn from Redis", e);
        }
    }

    void listen(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        running = true;
        listener = Thread.ofPlatform().name("sold-out-listener").daemon(true).start(this::subscribeLoop);
    }

    private void subscribeLoop() {
        while (running) {
            JedisPubSub pubSub = new JedisPubSub() {
                @Override
                public void onMessage(String channel, String message) {
                    apply(channel, message);
                }
            };
            subscription = pubSub;
            try {
                String suffix = databaseSuffix();
                if (suffix == null) {
                    throw new IllegalStateException("the connection's database is not known yet");
                }
                redis.subscribe(pubSub, CHANNEL + suffix, REHEARSAL_CHANNEL + suffix);
            } catch (RuntimeException e) {
                if (running) {
                    LOG.log(Level.FINE, "sold-out subscription lost; resubscribing", e);
                    try {
                        Thread.sleep(1_000);
                    } catch (InterruptedException interrupted) {
                        return;
                    }
                }
            }
        }
    }

    void apply(String channel, String message) {
        String[] parts = message.split(" ");
        if (parts.length != 3) {
            return;
        }
        try {
            long activityId = Long.parseLong(parts[1]);
            long skuId = Long.parseLong(parts[2]);
            if (!(World.of(activityId).key("soldout") + databaseSuffix).equals(channel)) {
                LOG.fine(() -> "ignored sold-out message of another world's channel: " + channel + " " + message);
                return;
            }
            switch (parts[0]) {
                case "S" -> flags.set(activityId, skuId);
                case "R" -> flags.clear(activityId, skuId);
                default -> LOG.fine(() -> "ignored sold-out message " + message);
            }
        } catch (NumberFormatException e) {
            LOG.fine(() -> "ignored sold-out message " + message);
        }
    }

    /** The channel a real sale's flags travel on, on this connection's database (null until it is known). */
    String channel() {
        String suffix = databaseSuffix();
        return suffix == null ? null : CHANNEL + suffix;
    }

    private String databaseSuffix() {
        String known = databaseSuffix;
        if (known != null) {
            return known;
        }
        if (redis instanceof JedisCluster) {
            databaseSuffix = "";
            return "";
        }
        try {
            Object info = redis.sendCommand(Protocol.Command.CLIENT, "INFO");
            String text = info instanceof byte[] bytes ? new String(bytes, java.nio.charset.StandardCharsets.UTF_8)
                    : String.valueOf(info);
            java.util.regex.Matcher database = DATABASE.matcher(text.trim());
            // a server without CLIENT INFO's db field (before 6.2) is taken as database 0, as before
            String suffix = !database.find() || database.group(1).equals("0") ? "" : ":db" + database.group(1);
            databaseSuffix = suffix;
            return suffix;
        } catch (JedisDataException olderServer) {
            databaseSuffix = "";
            return "";
        } catch (RuntimeException unreachable) {
            return null;
        }
    }

    @PreDestroy
    void stop() {
        running = false;
        JedisPubSub pubSub = subscription;
        if (pubSub != null && pubSub.isSubscribed()) {
            try {
                pubSub.unsubscribe();
            } catch (RuntimeException ignored) {
                // shutting down
            }
        }
        if (listener != null) {
            listener.interrupt();
        }
    }
}
