package seckill.redis;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * A Lua script kept as a resource beside the class that calls it. It is loaded once and called by
 * SHA; when a server answers NOSCRIPT (restart, failover, SCRIPT FLUSH, a cluster node that has not
 * seen it yet) it is loaded again on the node that owns the first key and the call is repeated once.
 * Exported so every module's scripts follow the same rule.
 */
public final class RedisScript {

    private final String source;
    private volatile String sha;

    private RedisScript(String source) {
        this.source = source;
    }

    /**
     * Reads the script from {@code in} ({@code name} is for the error). The caller opens the stream
     * so that a resource is looked up by its own module.
     */
    public static RedisScript read(InputStream in, String name) {
        if (in == null) {
            throw new IllegalStateException("Lua script " + name + " not found");
        }
        try (in) {
            return new RedisScript(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read Lua script " + name, e);
        }
    }

    public Object run(UnifiedJedis redis, List<String> keys, List<String> args) {
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

    /** A reply element as text (Jedis hands bulk strings over as bytes or strings). */
    public static String text(Object reply) {
        if (reply instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        return String.valueOf(reply);
    }
}
