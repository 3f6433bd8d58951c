package seckill.queue;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import redis.clients.jedis.UnifiedJedis;
import seckill.queue.api.LinePurge;
import seckill.redis.RehearsalKeys;

/** {@link LinePurge}: the rehearsal's line keys, found by SCAN. */
@ApplicationScoped
class PurgingLines implements LinePurge {

    private final UnifiedJedis redis;

    @Inject
    PurgingLines(UnifiedJedis redis) {
        this.redis = redis;
    }

    @Override
    public long purge(long rehearsalId) {
        return RehearsalKeys.delete(redis, List.of(RehearsalKeys.pattern(rehearsalId, "{q:a", "}:*")));
    }
}
