package seckill.reservation;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import redis.clients.jedis.UnifiedJedis;
import seckill.redis.RehearsalKeys;
import seckill.redis.World;
import seckill.reservation.api.StockPurge;
import seckill.reservation.redis.StockBuckets;

/** {@link StockPurge}: off the rehearsal registry first, then the keys. */
@ApplicationScoped
class PurgingStock implements StockPurge {

    private final UnifiedJedis redis;

    @Inject
    PurgingStock(UnifiedJedis redis) {
        this.redis = redis;
    }

    @Override
    public long purge(long rehearsalId) {
        String pattern = RehearsalKeys.pattern(rehearsalId, "{a", ":s*");
        String registry = StockBuckets.streamRegistry(World.REHEARSAL);
        String ownStreams = World.REHEARSAL.key("{a" + rehearsalId + ":s");
        List<String> listed = redis.zrange(registry, 0, -1).stream().filter(s -> s.startsWith(ownStreams)).toList();
        if (!listed.isEmpty()) {
            redis.zrem(registry, listed.toArray(String[]::new));
        }
        return RehearsalKeys.delete(redis, List.of(pattern));
    }
}
