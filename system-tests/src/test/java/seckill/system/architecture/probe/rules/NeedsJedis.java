package seckill.system.architecture.probe.rules;

import redis.clients.jedis.UnifiedJedis;

/** A made-up rule that reaches for a Redis client: {@code ArchitectureTest} must refuse it. */
public final class NeedsJedis {

    private NeedsJedis() {
    }

    public static boolean judge(UnifiedJedis redis) {
        return redis.exists("sk:probe");
    }
}
