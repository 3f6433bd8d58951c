package seckill.redis;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;

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

    /**
     * Reads a script made of several parts, in order, as one: a Redis script cannot include another,
     * so functions two scripts share live in a part of their own that each is read behind.
     */
    public static RedisScript read(String name, InputStream... parts) {
        StringBuilder source = new StringBuilder();
        for (InputStream part : parts) {
            source.append(read(part, name).source).append('\n');
        }
        return new RedisScript(source.toString());
    }

    public Object run(UnifiedJedis redis, List<String> keys, List<String> args) {
        return bySha(redis, keys, sha -> redis.evalsha(sha, keys, args));
    }

    /**
     * Runs the script, then waits until {@code acks.replicas()} replicas acknowledged its writes:
     * {@code WAIT} in the same pipeline, so on the same connection (it counts only that
     * connection's writes; on a cluster the connection to the keys' slot master). Too few in time throws {@link ReplicaAcks.Missing}: the writes are on
     * this master, but would not survive its loss. With no replicas required it is {@link #run}.
     */
    public Object runAcknowledged(UnifiedJedis redis, List<String> keys, List<String> args, ReplicaAcks acks) {
        if (acks.replicas() <= 0) {
            return run(redis, keys, args);
        }
        return bySha(redis, keys, sha -> acks.await(redis, keys.getFirst(), pipeline -> pipeline.evalsha(sha, keys, args)));
    }

    /** Calls by the known SHA, loading the script first if needed and once more on NOSCRIPT. */
    private Object bySha(UnifiedJedis redis, List<String> keys, Function<String, Object> call) {
        String current = sha;
        if (current == null) {
            current = load(redis, keys.getFirst());
        }
        try {
            return call.apply(current);
        } catch (JedisNoScriptException e) {
            return call.apply(load(redis, keys.getFirst()));
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
