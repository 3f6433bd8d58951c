package seckill.chaos.api;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;

import java.util.LinkedHashSet;
import java.util.Set;

import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * Judges a history file again, later: {@code java -cp <libs> seckill.chaos.api.CheckHistory <history.jsonl>
 * <jdbc-url> <db-user> <db-password> [<redis-uri>]}. Prints the verdict; exits 0 when every promise
 * held, 1 on any violation, 2 on bad arguments. The database must still hold the run's activity;
 * without a Redis URI the shelf the history recorded at the end of the run is judged. A cluster is
 * read through {@code redis-cluster://host:port[,host:port…]} (any of its nodes).
 */
public final class CheckHistory {

    private CheckHistory() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4 && args.length != 5) {
            System.err.println("usage: CheckHistory <history.jsonl> <jdbc-url> <db-user> <db-password>"
                    + " [<redis-uri> | redis-cluster://host:port,…]");
            System.exit(2);
        }
        History history = History.read(Path.of(args[0]));
        try (Connection db = DriverManager.getConnection(args[1], args[2], args[3]);
             UnifiedJedis redis = args.length == 5 ? redis(args[4]) : null) {
            Verdict verdict = new Checker(db, redis, 10).judge(history);
            System.out.print(verdict.report());
            System.exit(verdict.exitCode());
        }
    }

    /** A plain client, or on {@code redis-cluster://…} a cluster client that follows the slots. */
    static UnifiedJedis redis(String uri) {
        if (uri.startsWith("redis-cluster://")) {
            Set<HostAndPort> seeds = new LinkedHashSet<>();
            for (String node : uri.substring("redis-cluster://".length()).split(",")) {
                seeds.add(HostAndPort.from(node.trim()));
            }
            return new JedisCluster(seeds, DefaultJedisClientConfig.builder().timeoutMillis(2000).build());
        }
        return RedisClient.create(java.net.URI.create(uri));
    }
}
