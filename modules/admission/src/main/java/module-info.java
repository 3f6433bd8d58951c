/**
 * Admission: turns away purchase attempts that cannot succeed before they reach stock (window,
 * sold-out flags; later limits, tokens, blocklists and hot switches). Only
 * {@code seckill.admission.api} is visible to other modules.
 */
module seckill.admission {
    requires redis.clients.jedis;
    requires seckill.redis;
    requires jakarta.cdi;
    requires jakarta.inject;
    requires jakarta.annotation;
    requires microprofile.config.api;
    requires java.logging;
    requires com.github.benmanes.caffeine;
    requires java.desktop;
    requires microprofile.metrics.api;

    exports seckill.admission.api;
}
