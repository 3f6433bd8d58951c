package seckill.queue;

import java.io.InputStream;
import java.util.List;

import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;
import seckill.queue.api.LineUnavailable;
import seckill.redis.RedisScript;
import seckill.redis.ReplicaAcks;

/**
 * Runs the line's scripts: by SHA ({@link RedisScript}), every key through KEYS, a write waiting for the
 * replicas a reservation waits for; a Redis failure or missing acknowledgement is {@link LineUnavailable}.
 */
final class LineCalls {

    private final UnifiedJedis redis;
    private final java.util.function.Supplier<ReplicaAcks> acks;

    LineCalls(UnifiedJedis redis, java.util.function.Supplier<ReplicaAcks> acks) {
        this.redis = redis;
        this.acks = acks;
    }

    /** A script made of line.lua (the shared part) and {@code name}, both beside this class. */
    static RedisScript withLine(String name) {
        return RedisScript.read(name, part("line.lua"), part(name));
    }

    static RedisScript alone(String name) {
        return RedisScript.read(part(name), name);
    }

    private static InputStream part(String name) {
        return LineCalls.class.getResourceAsStream(name);
    }

    /** A call that writes what must survive a failover: waits for the replicas in force. */
    Object write(RedisScript script, List<String> keys, List<String> args) {
        try {
            return script.runAcknowledged(redis, keys, args, acks.get());
        } catch (ReplicaAcks.Missing e) {
            throw new LineUnavailable("the line's write was not acknowledged by enough replicas", e);
        } catch (JedisException e) {
            throw new LineUnavailable("Redis did not answer the line's call", e);
        }
    }

    /** A call whose writes, if any, are made again by the next call when lost. */
    Object read(RedisScript script, List<String> keys, List<String> args) {
        try {
            return script.run(redis, keys, args);
        } catch (JedisException e) {
            throw new LineUnavailable("Redis did not answer the line's call", e);
        }
    }
}
