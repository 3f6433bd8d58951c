package seckill.queue;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import seckill.queue.api.QueueSwitch;

/**
 * The queue's hot switches, read from MicroProfile Config (where {@code config/switches.yaml} re-reads
 * itself) every half second: {@code seckill.queue.enabled} (default false) and {@code seckill.queue.rate}
 * (buyers called per second per activity over all instances, default 100). Requests read plain fields.
 */
@QueueBean
class QueueSwitches implements QueueSwitch {

    private volatile boolean enabled;
    private volatile long rate = 100;
    private volatile boolean fixed;
    private ScheduledExecutorService refresher;

    @Override
    public boolean on() {
        return enabled;
    }

    @Override
    public long rate() {
        return rate;
    }

    /** Sets both directly and stops reading config (tests that build the module by hand). */
    void set(boolean enabled, long rate) {
        this.fixed = true;
        this.enabled = enabled;
        this.rate = Math.max(0, rate);
    }

    @PostConstruct
    void start() {
        refreshQuietly();
        refresher = Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().daemon(true)
                .name("queue-switches").unstarted(r));
        refresher.scheduleWithFixedDelay(this::refreshQuietly, 500, 500, TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        if (refresher != null) {
            refresher.shutdownNow();
        }
    }

    private void refreshQuietly() {
        if (fixed) {
            return;
        }
        try {
            Config config = ConfigProvider.getConfig();
            enabled = Boolean.parseBoolean(config.getOptionalValue("seckill.queue.enabled", String.class)
                    .orElse("false").trim());
            rate = Math.max(0, Long.parseLong(config.getOptionalValue("seckill.queue.rate", String.class)
                    .orElse("100").trim()));
        } catch (RuntimeException ignored) {
            // a half-written file or a bad value keeps the previous switches until it is fixed
        }
    }
}
