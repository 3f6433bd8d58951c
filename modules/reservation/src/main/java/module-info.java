/**
 * Reservation: the one atomic Redis action that judges a buyer, pre-deducts stock and records the
 * reservation event. Only {@code seckill.reservation.api} is visible to other modules.
 */
module seckill.reservation {
    requires transitive seckill.redis;
    requires redis.clients.jedis;
    requires jakarta.cdi;
    requires jakarta.inject;
    requires microprofile.config.api;
    requires java.logging;
    requires com.github.benmanes.caffeine;
    requires microprofile.metrics.api;

    exports seckill.reservation.api;
}
