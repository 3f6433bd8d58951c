package seckill.admission;

import java.util.Optional;

import org.eclipse.microprofile.config.Config;
import seckill.redis.CoalescingSettings;

/**
 * The admission module's settings that are read once (the hot switches are {@link AdmissionSwitches},
 * re-read as they change): purchase-token keys and lifetime, the captcha's lifetime, challenge
 * limits per buyer and per address, how long a sold-out flag lives, how the rate limits are
 * partitioned and batched, and how long a rate-limit call may wait for Redis.
 */
record AdmissionSettings(Optional<String> tokenKeys, long tokenTtlSeconds, long captchaTtlSeconds,
                         long challengesPerBuyerPerMinute, long challengesPerAddressPerMinute,
                         long soldOutFlagSeconds, int rateLimitPartitions, boolean coalescing,
                         CoalescingSettings batching, long redisTimeoutMillis) {

    static AdmissionSettings from(Config config) {
        CoalescingSettings batching = CoalescingSettings.from(config);
        return new AdmissionSettings(
                config.getOptionalValue("seckill.admission.token-keys", String.class).filter(k -> !k.isBlank()),
                config.getOptionalValue("seckill.admission.token-ttl-seconds", Long.class).orElse(60L),
                config.getOptionalValue("seckill.admission.captcha-ttl-seconds", Long.class).orElse(120L),
                config.getOptionalValue("seckill.admission.challenges-per-buyer-per-minute", Long.class).orElse(10L),
                config.getOptionalValue("seckill.admission.challenges-per-address-per-minute", Long.class).orElse(120L),
                config.getOptionalValue("seckill.admission.sold-out-flag-seconds", Long.class).orElse(5L),
                config.getOptionalValue("seckill.admission.rate-limit.partitions", Integer.class).orElse(1),
                // admission's coalescing follows the shared switch unless set apart
                config.getOptionalValue("seckill.admission.coalescing.enabled", Boolean.class)
                        .orElse(batching.enabled()),
                batching,
                config.getOptionalValue("seckill.redis.timeout-millis", Long.class).orElse(2000L));
    }
}
