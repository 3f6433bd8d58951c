package seckill.reservation.redis;

import java.util.List;

import redis.clients.jedis.UnifiedJedis;
import seckill.redis.RedisScript;

/** Runs {@code trim.lua}: removes a stream's settled entries without ever touching a pending one. */
public final class TrimScript {

    private final RedisScript script = RedisScript.read(TrimScript.class.getResourceAsStream("trim.lua"), "trim.lua");

    public long trim(UnifiedJedis redis, String stream, String consumerGroup) {
        return (Long) script.run(redis, List.of(stream), List.of(consumerGroup));
    }
}
