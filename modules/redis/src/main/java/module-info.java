/**
 * Redis tools every module that talks to Redis shares: scripts run by SHA and reloaded on NOSCRIPT
 * ({@code RedisScript}), request coalescing ({@code Coalescing}, configured under
 * {@code seckill.redis.coalescing.*}), hash tags spread over a cluster's slots ({@code SlotSpread}),
 * what a client failure means ({@code RedisFailures}), a Sentinel URI read ({@code SentinelAddress}) and
 * which world a sale's keys belong to ({@code World}: {@code sk:} for real sales, {@code rh:} for
 * rehearsals, by the activity id). It owns no keys and knows no business.
 */
module seckill.redis {
    requires transitive redis.clients.jedis;
    requires microprofile.metrics.api;
    requires microprofile.config.api;

    exports seckill.redis;
}
