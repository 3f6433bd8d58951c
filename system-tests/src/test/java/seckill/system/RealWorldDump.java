package seckill.system;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

import org.eclipse.microprofile.config.Config;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.resps.StreamEntry;
import redis.clients.jedis.resps.StreamGroupInfo;
import redis.clients.jedis.resps.Tuple;

/**
 * Everything of the real sales a rehearsal must leave as it was (issue #34, docs/rehearsal.md "Proving
 * it"): every Redis key under {@code sk:} with its contents (by type: the value, a hash's fields, a set's
 * members, a sorted set's members and scores, a list, a stream's entries and each group's pending count
 * and last delivered id; TTLs left out, since the instances' own lease renewals move them), and every row
 * of every table of the real database. Two dumps are equal when nothing real changed in between.
 */
public record RealWorldDump(Map<String, String> keys, java.util.Set<String> expiring, Map<String, List<String>> tables) {

    /** Dumps the real keys of {@code redis} and the real tables of the database {@code config} names. */
    public static RealWorldDump of(UnifiedJedis redis, Config config) {
        Map<String, String> keys = keys(redis, "sk:*");
        java.util.Set<String> expiring = new java.util.TreeSet<>();
        for (String key : List.copyOf(keys.keySet())) {
            long ttl = redis.pttl(key);
            if (ttl == -2) {
                // lapsed between its read and this look (a token's or a window's TTL ran out): not in the dump,
                // else the next dump would find it "gone without a TTL"
                keys.remove(key);
            } else if (ttl != -1) {
                expiring.add(key);
            }
        }
        return new RealWorldDump(keys, expiring, tables(config));
    }

    /**
     * A dump once the real world has settled: two dumps in a row, a tenth of a second apart, equal. A test that
     * waited for its order in MySQL may dump before the worker acknowledged its stream entry (XACK follows the
     * commit: a pending count of 1, then 0, seen on a busy machine as a change the rehearsal never made).
     */
    public static RealWorldDump settled(UnifiedJedis redis, Config config) {
        long until = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
        RealWorldDump last = of(redis, config);
        while (true) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            RealWorldDump next = of(redis, config);
            if (next.sameAsBut(last)) {
                return next;
            }
            if (System.nanoTime() - until > 0) {
                throw new AssertionError("the real world did not settle within 30 s; the last two dumps differ in "
                        + next.differencesFrom(last));
            }
            last = next;
        }
    }

    /**
     * Whether nothing real changed between {@code earlier} and this dump but keys with a TTL lapsing (on a loaded
     * machine a dump of thousands of keys takes seconds, and some rate window or token always lapses meanwhile:
     * exact equality never came twice in 30 s, CI rehearsal at load 16-20).
     */
    /** What differs from {@code earlier} (at most 10 keys, and whether the tables did), for a failure's message. */
    String differencesFrom(RealWorldDump earlier) {
        List<String> keysApart = new ArrayList<>();
        java.util.Set<String> names = new java.util.TreeSet<>(keys.keySet());
        names.addAll(earlier.keys().keySet());
        for (String name : names) {
            if (!java.util.Objects.equals(keys.get(name), earlier.keys().get(name))) {
                keysApart.add(name + (expiring.contains(name) || earlier.expiring().contains(name) ? " (TTL)" : ""));
            }
        }
        return (tables.equals(earlier.tables()) ? "" : "the tables, and ") + keysApart.size() + " keys "
                + keysApart.subList(0, Math.min(10, keysApart.size()));
    }

    boolean sameAsBut(RealWorldDump earlier) {
        if (!tables.equals(earlier.tables())) {
            return false;
        }
        for (Map.Entry<String, String> key : keys.entrySet()) {
            String before = earlier.keys().get(key.getKey());
            if (before == null ? !expiring.contains(key.getKey()) : !before.equals(key.getValue())) {
                return false;
            }
        }
        return earlier.keys().keySet().stream().allMatch(k -> keys.containsKey(k) || earlier.expiring().contains(k));
    }

    /**
     * Throws unless nothing real changed since {@code before}: every table row for row, every key as it was;
     * a key may be gone only if it had a TTL then (a rate window lapsing is Redis' doing, not a rehearsal's).
     */
    public void assertUnchangedSince(RealWorldDump before) {
        if (!tables.equals(before.tables())) {
            throw new AssertionError("the real tables changed: before " + before.tables() + ", after " + tables);
        }
        List<String> changed = new ArrayList<>();
        keys.forEach((key, contents) -> {
            if (!contents.equals(before.keys().get(key))) {
                changed.add(key + ": " + before.keys().get(key) + " -> " + contents);
            }
        });
        before.keys().keySet().stream().filter(k -> !keys.containsKey(k) && !before.expiring().contains(k))
                .forEach(k -> changed.add(k + " gone without a TTL"));
        if (!changed.isEmpty()) {
            throw new AssertionError("real keys changed: " + changed);
        }
    }

    /** Every key matching {@code pattern} (every master of a cluster), with its contents as text. */
    public static Map<String, String> keys(UnifiedJedis redis, String pattern) {
        List<String> names = new ArrayList<>();
        if (redis instanceof JedisCluster cluster) {
            for (var pool : cluster.getClusterNodes().values()) {
                try (Jedis node = new Jedis(pool.getResource())) {
                    if (node.info("replication").contains("role:master")) {
                        names.addAll(scan(node::scan, pattern));
                    }
                }
            }
        } else {
            names.addAll(scan(redis::scan, pattern));
        }
        Map<String, String> dump = new TreeMap<>();
        for (String key : names) {
            String contents = contents(redis, key);
            if (contents != null) {
                dump.put(key, contents);
            }
        }
        return dump;
    }

    private interface Scanner {
        ScanResult<String> scan(String cursor, ScanParams params);
    }

    private static List<String> scan(Scanner scanner, String pattern) {
        List<String> names = new ArrayList<>();
        String cursor = ScanParams.SCAN_POINTER_START;
        do {
            ScanResult<String> page = scanner.scan(cursor, new ScanParams().match(pattern).count(1000));
            names.addAll(page.getResult());
            cursor = page.getCursor();
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        return names;
    }

    private static String contents(UnifiedJedis redis, String key) {
        String type = redis.type(key);
        return switch (type) {
            case "none" -> null;
            case "string" -> "string " + redis.get(key);
            case "hash" -> "hash " + new TreeMap<>(redis.hgetAll(key));
            case "set" -> "set " + new java.util.TreeSet<>(redis.smembers(key));
            case "list" -> "list " + redis.lrange(key, 0, -1);
            case "zset" -> {
                List<String> members = new ArrayList<>();
                for (Tuple t : redis.zrangeWithScores(key, 0, -1)) {
                    members.add(t.getElement() + "=" + t.getScore());
                }
                yield "zset " + members;
            }
            case "stream" -> {
                StringBuilder s = new StringBuilder("stream");
                for (StreamEntry e : redis.xrange(key, (StreamEntryID) null, (StreamEntryID) null)) {
                    s.append(' ').append(e.getID()).append(new TreeMap<>(e.getFields()));
                }
                for (StreamGroupInfo g : redis.xinfoGroups(key)) {
                    s.append(" group ").append(g.getName()).append(" pending=").append(g.getPending())
                            .append(" last=").append(g.getLastDeliveredId());
                }
                yield s.toString();
            }
            default -> type + " ?";
        };
    }

    /** Every row of every table of the database {@code config}'s {@code seckill.db.url} names, as text. */
    public static Map<String, List<String>> tables(Config config) {
        Properties login = new Properties();
        login.setProperty("user", config.getOptionalValue("seckill.db.user", String.class).orElse("root"));
        login.setProperty("password", config.getOptionalValue("seckill.db.password", String.class).orElse(""));
        Map<String, List<String>> dump = new TreeMap<>();
        try (Connection c = DriverManager.getConnection(config.getValue("seckill.db.url", String.class), login);
             Statement s = c.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet r = s.executeQuery("SHOW FULL TABLES WHERE Table_type = 'BASE TABLE'")) {
                while (r.next()) {
                    tables.add(r.getString(1));
                }
            }
            for (String table : tables) {
                List<String> rows = new ArrayList<>();
                try (ResultSet r = s.executeQuery("SELECT * FROM `" + table + "`")) {
                    ResultSetMetaData meta = r.getMetaData();
                    while (r.next()) {
                        StringBuilder row = new StringBuilder();
                        for (int i = 1; i <= meta.getColumnCount(); i++) {
                            row.append(meta.getColumnName(i)).append('=').append(r.getString(i)).append(' ');
                        }
                        rows.add(row.toString());
                    }
                }
                rows.sort(null);
                dump.put(table, rows);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot dump the real tables: " + e.getMessage(), e);
        }
        return dump;
    }
}
