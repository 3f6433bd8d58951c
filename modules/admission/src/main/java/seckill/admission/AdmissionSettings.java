package seckill.admission;

import java.util.Optional;

import org.eclipse.microprofile.config.Config;

/**
 * The admission module's settings that are read once (the hot switches are {@link AdmissionSwitches},
 * re-read as they change): purchase-token keys and lifetime, the captcha's lifetime, challenge
 * limits per buyer and per address, how long a sold-out flag lives and over how many slot
 * ranges an activity's rate-limit keys are spread, and which captcha verifier issues challenges.
 */
record AdmissionSettings(Optional<String> tokenKeys, long tokenTtlSeconds, long captchaTtlSeconds,
                         long challengesPerBuyerPerMinute, long challengesPerAddressPerMinute,
                         long soldOutFlagSeconds, int rateLimitPartitions, String captchaVerifier,
                         java.util.function.Supplier<seckill.redis.ReplicaAcks> acksInForce) {

    static AdmissionSettings from(Config config, java.time.Clock clock) {
        return new AdmissionSettings(
                config.getOptionalValue("seckill.admission.token-keys", String.class).filter(k -> !k.isBlank()),
                config.getOptionalValue("seckill.admission.token-ttl-seconds", Long.class).orElse(60L),
                config.getOptionalValue("seckill.admission.captcha-ttl-seconds", Long.class).orElse(120L),
                config.getOptionalValue("seckill.admission.challenges-per-buyer-per-minute", Long.class).orElse(10L),
                // a backstop sized for a proxy that many buyers share (issue #36), not for one person: the buyer's limit is first
                config.getOptionalValue("seckill.admission.challenges-per-address-per-minute", Long.class).orElse(6000L),
                config.getOptionalValue("seckill.admission.sold-out-flag-seconds", Long.class).orElse(5L),
                config.getOptionalValue("seckill.admission.rate-limit.partitions", Integer.class).orElse(1),
                // the @Named CDI bean that issues and checks challenges: "image" is the built-in ImageCaptcha
                config.getOptionalValue("seckill.admission.captcha-verifier", String.class).orElse("image"),
                // a token's spend waits for the replicas a reservation waits for (a hot switch, as there)
                seckill.redis.ReplicaAcks.inForce(config, clock));
    }
}
