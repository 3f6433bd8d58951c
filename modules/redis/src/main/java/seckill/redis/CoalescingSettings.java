package seckill.redis;

import org.eclipse.microprofile.config.Config;

/**
 * How {@link Coalescing} batches script calls, under {@code seckill.redis.coalescing.*}: whether it
 * is on, the most buyers one call carries, how long a lane waits for company (µs, 0 = never), and
 * how many calls a lane keeps in flight. The older keys {@code seckill.reservation.coalescing.*}
 * are still read when the new ones are absent, so existing deployments keep their settings.
 */
public record CoalescingSettings(boolean enabled, int maxBatch, long maxWaitMicros, int callsPerLane) {

    public static final String PREFIX = "seckill.redis.coalescing.";
    static final String OLD_PREFIX = "seckill.reservation.coalescing.";

    public CoalescingSettings {
        if (maxBatch < 1 || callsPerLane < 1 || maxWaitMicros < 0) {
            throw new IllegalArgumentException(PREFIX + "max-batch and calls-per-lane must be >= 1, max-wait-micros >= 0");
        }
    }

    public static CoalescingSettings from(Config config) {
        return new CoalescingSettings(
                read(config, "enabled", Boolean.class, true),
                read(config, "max-batch", Integer.class, 32),
                read(config, "max-wait-micros", Long.class, 0L),
                read(config, "calls-per-lane", Integer.class, 1));
    }

    private static <T> T read(Config config, String key, Class<T> type, T fallback) {
        return config.getOptionalValue(PREFIX + key, type)
                .or(() -> config.getOptionalValue(OLD_PREFIX + key, type))
                .orElse(fallback);
    }
}
