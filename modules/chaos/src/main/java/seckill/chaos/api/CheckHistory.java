package seckill.chaos.api;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;

import redis.clients.jedis.RedisClient;

/**
 * Judges a history file again, later: {@code java -cp <libs> seckill.chaos.api.CheckHistory <history.jsonl>
 * <jdbc-url> <db-user> <db-password> [<redis-uri>]}. Prints the verdict; exits 0 when every promise
 * held, 1 on any violation, 2 on bad arguments. The database must still hold the run's activity;
 * without a Redis URI the shelf the history recorded at the end of the run is judged.
 */
public final class CheckHistory {

    private CheckHistory() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4 && args.length != 5) {
            System.err.println("usage: CheckHistory <history.jsonl> <jdbc-url> <db-user> <db-password> [<redis-uri>]");
            System.exit(2);
        }
        History history = History.read(Path.of(args[0]));
        try (Connection db = DriverManager.getConnection(args[1], args[2], args[3]);
             RedisClient redis = args.length == 5 ? RedisClient.create(java.net.URI.create(args[4])) : null) {
            Verdict verdict = new Checker(db, redis, 10).judge(history);
            System.out.print(verdict.report());
            System.exit(verdict.exitCode());
        }
    }
}
