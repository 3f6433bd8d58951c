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
    /**
     * Calls of up to 64 buyers, and a caller taking a loaded lane's last free slot waits up to 500 µs
     * for company: Redis' fixed cost of a call (about 180k instructions) is then shared by about 41
     * buyers instead of 15 at 64 connections, 16.9 -> 11.5 µs of Redis CPU a reservation (issue #35,
     * docs/benchmarks.md). A lone caller on a quiet lane never waits (Coalescing).
     */
    static final int DEFAULT_MAX_BATCH = 64;
    static final long DEFAULT_MAX_WAIT_MICROS = 500L;

    public CoalescingSettings {
        if (maxBatch < 1 || callsPerLane < 1 || maxWaitMicros < 0) {
            throw new IllegalArgumentException(PREFIX + "max-batch and calls-per-lane must be >= 1, max-wait-micros >= 0");
        }
    }

    public static CoalescingSettings from(Config config) {
        return new CoalescingSettings(
                read(config, "enabled", Boolean.class, true),
                read(config, "max-batch", Integer.class, DEFAULT_MAX_BATCH),
                read(config, "max-wait-micros", Long.class, DEFAULT_MAX_WAIT_MICROS),
                read(config, "calls-per-lane", Integer.class, 1));
    }

    private static <T> T read(Config config, String key, Class<T> type, T fallback) {
        return config.getOptionalValue(PREFIX + key, type)
                .or(() -> config.getOptionalValue(OLD_PREFIX + key, type))
                .orElse(fallback);
    }
}
