package seckill.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * Finding and deleting one rehearsal's keys (the purge, issue #34, docs/rehearsal.md "The purge"). A pattern
 * is built here from {@code rh:} and a rehearsal id only: the caller gives what surrounds the id
 * ({@code "{a", ":s*"}), never a prefix, so no pattern can match a real ({@code sk:}) key, nor a key of
 * another rehearsal whose id merely starts with this one's (the id is always followed by what the caller
 * names, which must not start with a digit). On a cluster every node is scanned (a replica's keys are its
 * master's; the keys are deleted through the cluster client, by slot).
 */
public final class RehearsalKeys {

    private RehearsalKeys() {
    }

    /** {@code rh:<before><activityId><after>}, refused for a real id or an {@code after} starting with a digit or glob. */
    public static String pattern(long activityId, String before, String after) {
        if (World.of(activityId) != World.REHEARSAL) {
            throw new IllegalArgumentException("not a rehearsal id: " + activityId);
        }
        if (after.isEmpty() || Character.isDigit(after.charAt(0)) || "*?[".indexOf(after.charAt(0)) >= 0
                || before.contains("*") || before.contains("?") || before.contains("[")) {
            throw new IllegalArgumentException("the id must be delimited on both sides: " + before + "|" + after);
        }
        return World.REHEARSAL.key(before + activityId + after);
    }

    /** Every key matching one of the patterns ({@link #pattern}), on every node. */
    public static Set<String> find(UnifiedJedis redis, List<String> patterns) {
        for (String pattern : patterns) {
            if (!pattern.startsWith(World.REHEARSAL.prefix())) {
                throw new IllegalArgumentException("not a rehearsal pattern: " + pattern);
            }
        }
        Set<String> keys = new LinkedHashSet<>();
        Map<String, ConnectionPool> nodes = redis instanceof JedisCluster cluster ? cluster.getClusterNodes()
                : redis instanceof RedisClusterClient client ? client.getClusterNodes() : null;
        for (String pattern : patterns) {
            if (nodes == null) {
                String cursor = ScanParams.SCAN_POINTER_START;
                do {
                    ScanResult<String> page = redis.scan(cursor, new ScanParams().match(pattern).count(1000));
                    keys.addAll(page.getResult());
                    cursor = page.getCursor();
                } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
            } else {
                for (ConnectionPool pool : nodes.values()) {
                    try (Connection node = pool.getResource()) {
                        keys.addAll(scan(node, pattern));
                    }
                }
            }
        }
        return keys;
    }

    /** Deletes every key matching one of the patterns; how many were deleted. */
    public static long delete(UnifiedJedis redis, List<String> patterns) {
        long deleted = 0;
        for (String key : find(redis, patterns)) {
            deleted += redis.del(key);
        }
        return deleted;
    }

    private static List<String> scan(Connection node, String pattern) {
        List<String> keys = new ArrayList<>();
        String cursor = ScanParams.SCAN_POINTER_START;
        do {
            List<?> page = (List<?>) node.executeCommand(new CommandArguments(Protocol.Command.SCAN).add(cursor)
                    .add("MATCH").add(pattern).add("COUNT").add(1000));
            cursor = text(page.get(0));
            for (Object key : (List<?>) page.get(1)) {
                keys.add(text(key));
            }
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        return keys;
    }

    private static String text(Object reply) {
        return reply instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(reply);
    }
}
