package seckill.reservation.redis;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * A Lua script kept as a resource beside the class that calls it. It is loaded once and called by
 * SHA; when a server answers NOSCRIPT (restart, failover, SCRIPT FLUSH) it is loaded again on the
 * node that owns the first key and the call is repeated once.
 */
final class RedisScript {

    private final String source;
    private volatile String sha;

    private RedisScript(String source) {
        this.source = source;
    }

    static RedisScript fromResource(Class<?> neighbour, String name) {
        try (InputStream in = neighbour.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("Lua script " + name + " not found beside " + neighbour.getName());
            }
            return new RedisScript(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read Lua script " + name, e);
        }
    }

    Object run(UnifiedJedis redis, List<String> keys, List<String> args) {
        String current = sha;
        if (current == null) {
            current = load(redis, keys.getFirst());
        }
        try {
            return redis.evalsha(current, keys, args);
        } catch (JedisNoScriptException e) {
            return redis.evalsha(load(redis, keys.getFirst()), keys, args);
        }
    }

    private String load(UnifiedJedis redis, String sampleKey) {
        String loaded = redis.scriptLoad(source, sampleKey);
        sha = loaded;
        return loaded;
    }

    static String text(Object reply) {
        if (reply instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        return String.valueOf(reply);
    }
}
