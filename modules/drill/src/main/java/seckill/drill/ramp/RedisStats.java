package seckill.drill.ramp;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.resps.LatencyLatestInfo;
import redis.clients.jedis.resps.Slowlog;
import redis.clients.jedis.resps.StreamGroupInfo;
import redis.clients.jedis.util.JedisURIHelper;
import seckill.redis.SentinelAddress;

/**
 * Reads, read-only, what the deployment's Redis says about its own time: {@code INFO commandstats}
 * (calls and microseconds per command, the scripts' own commands among them), {@code SLOWLOG GET}
 * and {@code LATENCY LATEST}, on every master ({@code redis-cluster://} seeds are asked for the
 * masters, {@code redis-sentinel://} Sentinels for theirs). The figures are the servers' whole: other
 * databases on the same server count too. Writes nothing, resets nothing.
 */
public final class RedisStats implements AutoCloseable {

    private static final int SLOWLOG_ENTRIES = 128;

    /** Calls and microseconds of one command, as {@code INFO commandstats} counts them. */
    public record CommandTime(long calls, long micros) {
        CommandTime minus(CommandTime earlier) {
            return new CommandTime(calls - earlier.calls, micros - earlier.micros);
        }

        CommandTime plus(CommandTime other) {
            return new CommandTime(calls + other.calls, micros + other.micros);
        }
    }

    /** One reading of every master that answered, by master. */
    public record Sample(long atMillis, Map<String, Map<String, CommandTime>> commands,
                         Map<String, List<Slowlog>> slowlog, Map<String, Map<String, LatencyLatestInfo>> latency) {
    }

    /** What Redis did between two samples. */
    public record Delta(int nodes, Map<String, CommandTime> commands, int slowlogEntries, long slowlogMaxMicros,
                        Map<String, Long> latencyEventsMillis) {

        /** Calls and time of the scripts themselves ({@code EVALSHA}, {@code EVALSHA_RO}, {@code EVAL}). */
        public CommandTime scripts() {
            CommandTime sum = new CommandTime(0, 0);
            for (String name : List.of("evalsha", "evalsha_ro", "eval", "eval_ro")) {
                sum = sum.plus(commands.getOrDefault(name, new CommandTime(0, 0)));
            }
            return sum;
        }

        /** Mean microseconds of a script call, NaN without calls. */
        public double scriptMicrosPerCall() {
            CommandTime s = scripts();
            return s.calls() == 0 ? Double.NaN : (double) s.micros() / s.calls();
        }

        /** The commands that took the most time, most first (the scripts' own commands among them). */
        public Map<String, CommandTime> busiest(int n) {
            Map<String, CommandTime> top = new LinkedHashMap<>();
            commands.entrySet().stream().filter(e -> e.getValue().calls() > 0)
                    .sorted((a, b) -> Long.compare(b.getValue().micros(), a.getValue().micros())).limit(n)
                    .forEach(e -> top.put(e.getKey(), e.getValue()));
            return top;
        }
    }

    private final Map<String, Jedis> masters = new LinkedHashMap<>();

    private RedisStats(List<HostAndPort> nodes, JedisClientConfig config) {
        for (HostAndPort node : nodes) {
            masters.put(node.toString(), new Jedis(node, config));
        }
    }

    /** A reader of every master of the Redis at {@code uri} ({@code seckill.redis.uri}'s forms). */
    public static RedisStats of(String uri) {
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder().timeoutMillis(2_000);
        if (uri.startsWith("redis-cluster://")) {
            String rest = uri.substring("redis-cluster://".length());
            int at = rest.lastIndexOf('@');
            if (at >= 0) {
                config.password(rest.substring(0, at));
                rest = rest.substring(at + 1);
            }
            JedisClientConfig built = config.build();
            RuntimeException last = null;
            for (String seed : rest.split(",")) {
                try (Jedis jedis = new Jedis(HostAndPort.from(seed.trim()), built)) {
                    return new RedisStats(clusterMasters(jedis.clusterNodes()), built);
                } catch (RuntimeException e) {
                    last = e;
                }
            }
            throw new IllegalStateException("no cluster seed of " + rest + " answered", last);
        }
        if (SentinelAddress.isSentinel(uri)) {
            SentinelAddress address = SentinelAddress.parse(uri);
            address.user().ifPresent(config::user);
            address.password().ifPresent(config::password);
            try (Jedis sentinel = new Jedis(address.anySentinel())) {
                List<String> master = sentinel.sentinelGetMasterAddrByName(address.masterName());
                return new RedisStats(List.of(new HostAndPort(master.get(0), Integer.parseInt(master.get(1)))),
                        config.build());
            }
        }
        URI target = URI.create(uri);
        config.ssl(JedisURIHelper.isRedisSSLScheme(target)).user(JedisURIHelper.getUser(target))
                .password(JedisURIHelper.getPassword(target)).database(JedisURIHelper.getDBIndex(target));
        return new RedisStats(List.of(JedisURIHelper.getHostAndPort(target)), config.build());
    }

    /** The masters a {@code CLUSTER NODES} answer lists (not failed ones). */
    static List<HostAndPort> clusterMasters(String clusterNodes) {
        List<HostAndPort> masters = new ArrayList<>();
        for (String line : clusterNodes.split("\n")) {
            String[] f = line.trim().split(" ");
            if (f.length > 2 && f[2].contains("master") && !f[2].contains("fail")) {
                String address = f[1].split("@")[0];
                int colon = address.lastIndexOf(':');
                masters.add(new HostAndPort(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1))));
            }
        }
        return masters;
    }

    public int nodes() {
        return masters.size();
    }

    /** Reads every master now; a master that does not answer is left out of this sample. */
    public Sample sample() {
        Map<String, Map<String, CommandTime>> commands = new HashMap<>();
        Map<String, List<Slowlog>> slowlog = new HashMap<>();
        Map<String, Map<String, LatencyLatestInfo>> latency = new HashMap<>();
        masters.forEach((name, jedis) -> {
            try {
                Map<String, CommandTime> stats = commandStats(jedis.info("commandstats"));
                List<Slowlog> slow = jedis.slowlogGet(SLOWLOG_ENTRIES);
                Map<String, LatencyLatestInfo> events = jedis.latencyLatest();
                commands.put(name, stats);
                slowlog.put(name, slow);
                latency.put(name, events);
            } catch (RuntimeException notNow) {
                // a silent master leaves a gap in this sample; the next one reads it again
            }
        });
        return new Sample(System.currentTimeMillis(), commands, slowlog, latency);
    }

    /** What happened between two samples, on the masters both samples read. */
    public static Delta between(Sample before, Sample after) {
        Map<String, CommandTime> commands = new TreeMap<>();
        after.commands().forEach((node, stats) -> {
            Map<String, CommandTime> earlier = before.commands().get(node);
            if (earlier == null) {
                return;
            }
            stats.forEach((cmd, t) -> {
                CommandTime d = t.minus(earlier.getOrDefault(cmd, new CommandTime(0, 0)));
                if (d.calls() > 0) {
                    commands.merge(cmd, d, CommandTime::plus);
                }
            });
        });
        int slow = 0;
        long slowMax = 0;
        for (Map.Entry<String, List<Slowlog>> node : after.slowlog().entrySet()) {
            if (!before.slowlog().containsKey(node.getKey())) {
                continue;
            }
            long seen = before.slowlog().get(node.getKey()).stream().mapToLong(Slowlog::getId).max().orElse(-1);
            for (Slowlog entry : node.getValue()) {
                if (entry.getId() > seen) {
                    slow++;
                    slowMax = Math.max(slowMax, entry.getExecutionTime());
                }
            }
        }
        Map<String, Long> events = new TreeMap<>();
        long since = before.atMillis() / 1_000;
        after.latency().values().forEach(node -> node.forEach((event, info) -> {
            if (info.getTimestamp() >= since) {
                events.merge(event, info.getLastEventLatency(), Math::max);
            }
        }));
        int read = (int) after.commands().keySet().stream().filter(before.commands()::containsKey).count();
        return new Delta(read, commands, slow, slowMax, events);
    }

    /** {@code INFO commandstats} as calls and microseconds per command (lower case; subcommands as {@code a|b}). */
    static Map<String, CommandTime> commandStats(String info) {
        Map<String, CommandTime> stats = new TreeMap<>();
        for (String line : info.split("\r?\n")) {
            if (!line.startsWith("cmdstat_")) {
                continue;
            }
            int colon = line.indexOf(':');
            String name = line.substring("cmdstat_".length(), colon);
            long calls = 0;
            long usec = 0;
            for (String field : line.substring(colon + 1).split(",")) {
                String[] kv = field.split("=", 2);
                if (kv[0].equals("calls")) {
                    calls = Long.parseLong(kv[1]);
                } else if (kv[0].equals("usec")) {
                    usec = Long.parseLong(kv[1]);
                }
            }
            stats.put(name, new CommandTime(calls, usec));
        }
        return stats;
    }

    /**
     * Entries of {@code streams} the consumer {@code group} has not acknowledged: handed to a worker and pending,
     * plus never handed out (the group's lag), summed; each stream read on the master that holds it (the others
     * answer a redirection or hold no such key). NaN when no stream could be read. What the service's
     * {@code seckill_stream_pending} gauge counts for the real streams, for streams it does not count (a rehearsal's).
     */
    public double backlog(List<String> streams, String group) {
        double sum = Double.NaN;
        for (String stream : streams) {
            for (Jedis jedis : masters.values()) {
                try {
                    if (!jedis.exists(stream)) {
                        continue;
                    }
                    for (StreamGroupInfo g : jedis.xinfoGroups(stream)) {
                        if (g.getName().equals(group)) {
                            Object lag = g.getGroupInfo().get("lag");
                            long behind = g.getPending() + (lag instanceof Long l ? l : 0);
                            sum = Double.isNaN(sum) ? behind : sum + behind;
                        }
                    }
                    break;
                } catch (RuntimeException elsewhere) {
                    // a cluster master not holding the key redirects; a silent one is left out
                }
            }
        }
        return sum;
    }

    @Override
    public void close() {
        masters.values().forEach(Jedis::close);
    }
}
