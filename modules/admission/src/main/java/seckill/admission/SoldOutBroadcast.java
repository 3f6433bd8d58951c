package seckill.admission;

import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.UnifiedJedis;

/**
 * Sold-out flags shared by every instance through Redis pub/sub (channel {@code sk:soldout}). A
 * flag is set locally first, then published; every instance applies what it hears. A lost message
 * only costs Redis calls (an instance without the flag still asks Redis and gets the true answer),
 * never a wrong answer, because a flag is only ever raised after Redis said "sold out".
 */
@HotPathSingleton
class SoldOutBroadcast {

    private static final Logger LOG = Logger.getLogger(SoldOutBroadcast.class.getName());
    static final String CHANNEL = "sk:soldout";

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
    private volatile JedisPubSub subscription;
    private Thread listener;

    SoldOutFlags flags() {
        return flags;
    }

    void soldOut(long activityId, long skuId) {
        boolean known = flags.isSet(activityId, skuId);
        flags.set(activityId, skuId);
        if (!known) {
            publish("S " + activityId + " " + skuId);
        }
    }

    void restocked(long activityId, long skuId) {
        flags.clear(activityId, skuId);
        publish("R " + activityId + " " + skuId);
    }

    private void publish(String message) {
        try {
            redis.publish(CHANNEL, message);
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
                    apply(message);
                }
            };
            subscription = pubSub;
            try {
                redis.subscribe(pubSub, CHANNEL);
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

    void apply(String message) {
        String[] parts = message.split(" ");
        if (parts.length != 3) {
            return;
        }
        try {
            long activityId = Long.parseLong(parts[1]);
            long skuId = Long.parseLong(parts[2]);
            switch (parts[0]) {
                case "S" -> flags.set(activityId, skuId);
                case "R" -> flags.clear(activityId, skuId);
                default -> LOG.fine(() -> "ignored sold-out message " + message);
            }
        } catch (NumberFormatException e) {
            LOG.fine(() -> "ignored sold-out message " + message);
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
