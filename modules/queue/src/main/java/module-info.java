/**
 * The waiting room in front of a sale (issue #33): a line per activity in Redis, a pre-queue shuffled
 * at the start, admission from the line at an operator's rate, short-lived signed passes, and a line
 * that closes when the stock is gone. Only {@code seckill.queue.api} is visible to other modules.
 */
module seckill.queue {
    requires redis.clients.jedis;
    requires seckill.redis;
    requires jakarta.cdi;
    requires jakarta.inject;
    requires jakarta.annotation;
    requires microprofile.config.api;
    requires microprofile.metrics.api;
    requires java.logging;

    exports seckill.queue.api;
}
