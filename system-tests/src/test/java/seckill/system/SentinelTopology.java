package seckill.system;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.embedded.RedisInstance;
import redis.embedded.RedisSentinel;
import redis.embedded.RedisServer;

/**
 * A Redis master with two replicas and three Sentinels, real {@code redis-server} processes (the
 * embedded-redis binary, so only a JDK is needed) on free loopback ports, started before the test
 * class's service and named to it by {@code seckill.redis.uri} as a system property (it outranks the
 * environment). Two replicas: after a failover the new master still has one to acknowledge with.
 * Register it in a static field; everything is stopped after the class.
 */
public final class SentinelTopology implements AfterAllCallback {

    public static final String MASTER_NAME = "seckill";

    private final List<RedisInstance> instances = new ArrayList<>();
    private final List<Integer> sentinelPorts = new ArrayList<>();
    private final List<Integer> replicaPorts = new ArrayList<>();
    private final List<Integer> dataPorts = new ArrayList<>();

    private final int replicaCount;

    /** What the Sentinels published (the last events), for a failure's message and target/. */
    private final Deque<String> published = new ConcurrentLinkedDeque<>();
    private final List<Jedis> subscribers = new CopyOnWriteArrayList<>();

    public SentinelTopology() {
        this(2);
    }

    /** A master with {@code replicas} replicas (two unless a test needs the last one to go). */
    public SentinelTopology(int replicas) {
        this.replicaCount = replicas;
        try {
            int master = freePort();
            instances.add(server(master, null));
            dataPorts.add(master);
            for (int i = 0; i < replicas; i++) {
                int port = freePort();
                instances.add(server(port, master));
                replicaPorts.add(port);
                dataPorts.add(port);
            }
            for (int i = 0; i < 3; i++) {
                int port = freePort();
                RedisSentinel sentinel = RedisSentinel.newRedisSentinel().bind("127.0.0.1").port(port)
                        .masterName(MASTER_NAME).masterPort(master).quorumSize(2).downAfterMilliseconds(1000)
                        .failOverTimeout(5000).parallelSyncs(2).build();
                sentinel.start();
                instances.add(sentinel);
                sentinelPorts.add(port);
                listenTo(port);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the Sentinel topology", e);
        }
        SaleFixture.await(replicas + " replica(s) in sync and a Sentinel quorum", Duration.ofSeconds(60), this::ready);
        System.setProperty("seckill.redis.uri", uri());
    }

    /** {@code redis-sentinel://…/seckill} naming the three Sentinels. */
    public String uri() {
        return "redis-sentinel://" + sentinelPorts.stream().map(p -> "127.0.0.1:" + p).collect(Collectors.joining(","))
                + "/" + MASTER_NAME;
    }

    public HostAndPort sentinel() {
        return new HostAndPort("127.0.0.1", sentinelPorts.getFirst());
    }

    /** The master the Sentinels name now. */
    public HostAndPort master() {
        try (Jedis jedis = new Jedis(sentinel())) {
            List<String> address = jedis.sentinelGetMasterAddrByName(MASTER_NAME);
            return new HostAndPort(address.get(0), Integer.parseInt(address.get(1)));
        }
    }

    /**
     * Waits until the failover from {@code old} is over on every Sentinel: each names the same master,
     * not {@code old}, at the same config epoch, and none is failing over still ({@code failover_in_progress},
     * which only the leader shows); returns that master. A failover a replica refuses to follow lasts until
     * the failover timeout (5 s here). While the leader's is open, a second failover by the others (the new
     * master judged down in a stall) reaches the leader at an epoch it takes without switching (it still
     * stores the old master's address, the one the others promoted when restarted early); its own failover
     * then ends on the first promoted, at the same epoch, and the Sentinels stay split for good.
     */
    public HostAndPort awaitFailoverOver(HostAndPort old, Duration within) {
        HostAndPort[] agreed = new HostAndPort[1];
        // (asked on the test's thread: SaleFixture.await polls in it)
        List<String> seen = new ArrayList<>();
        try {
            SaleFixture.await("every Sentinel past the failover from " + old, within, () -> {
                seen.clear();
                agreed[0] = null;
                String epoch = null;
                boolean agree = true;
                for (int port : sentinelPorts) {
                    try (Jedis jedis = new Jedis("127.0.0.1", port)) {
                        // one reply: its address is the one it stores (the old master's while it leads a failover)
                        Map<String, String> master = jedis.sentinelMaster(MASTER_NAME);
                        HostAndPort named = new HostAndPort(master.get("ip"), Integer.parseInt(master.get("port")));
                        seen.add(port + ": " + named + " epoch " + master.get("config-epoch") + " " + master.get("flags"));
                        if (agreed[0] == null) {
                            agreed[0] = named;
                            epoch = master.get("config-epoch");
                        }
                        agree &= named.equals(agreed[0]) && master.get("config-epoch").equals(epoch)
                                && !master.getOrDefault("flags", "").contains("failover_in_progress");
                    } catch (RuntimeException notAnswering) {
                        seen.add(port + ": " + notAnswering.getMessage());
                        return false;
                    }
                }
                return agree && !agreed[0].equals(old);
            });
        } catch (RuntimeException | Error notOver) {
            throw new AssertionError("the Sentinels did not agree past the failover from " + old + " within " + within
                    + ": " + seen + "\n" + events(), notOver);
        }
        return agreed[0];
    }

    /** Waits until every Sentinel lists {@code count} replicas of the master: a failover may pick any of them. */
    public void awaitSentinelsList(int count, Duration within) {
        SaleFixture.await("every Sentinel lists " + count + " replicas", within, () -> {
            for (int i = 0; i < sentinelPorts.size(); i++) {
                if (listedReplicas(i).size() != count) {
                    return false;
                }
            }
            return true;
        });
    }

    /**
     * Whether {@code node} calls itself a master now. A Sentinel promoting a replica closes the node's
     * normal clients in the same step (its MULTI: REPLICAOF NO ONE, CONFIG REWRITE, CLIENT KILL TYPE
     * normal), so a probe connected at that moment is reset: that reads as "not yet", and the next
     * probe, on a new connection, sees the promotion. (CI's rehearsal of 2026-12-07 04:04Z failed
     * DeposedMasterTest and FollowerSentinelTest on such a reset while awaiting the promotion.)
     */
    public static boolean callsItselfMaster(HostAndPort node) {
        try (Jedis jedis = new Jedis(node)) {
            return jedis.info("replication").contains("role:master");
        } catch (JedisConnectionException e) {
            return false;
        }
    }

    /** The process id of a node of the topology (from {@code INFO server}), for faults sent from outside. */
    public static long processId(HostAndPort node) {
        try (Jedis jedis = new Jedis(node)) {
            for (String line : jedis.info("server").split("\r?\n")) {
                if (line.startsWith("process_id:")) {
                    return Long.parseLong(line.substring("process_id:".length()).trim());
                }
            }
        }
        throw new IllegalStateException("no process_id from " + node);
    }

    /** Each node's {@code INFO replication} on one line, for a failure's message. */
    public static String replicationOf(HostAndPort... nodes) {
        StringBuilder state = new StringBuilder();
        for (HostAndPort node : nodes) {
            try (Jedis jedis = new Jedis(node)) {
                state.append(node).append(' ').append(jedis.info("replication").replaceAll("\\s+", " ")).append("; ");
            } catch (RuntimeException e) {
                state.append(node).append(' ').append(e.getMessage()).append("; ");
            }
        }
        return state.toString();
    }

    /** A node's role and replication offsets, for a failure's message. */
    public static String offsets(HostAndPort node) {
        try (Jedis jedis = new Jedis(node)) {
            return jedis.info("replication").lines().filter(l -> l.contains("offset") || l.startsWith("role")
                    || l.startsWith("slave")).toList().toString();
        } catch (RuntimeException e) {
            return e.getMessage();
        }
    }

    /** The flags the first Sentinel lists for a replica ({@code SENTINEL REPLICAS}); empty when it lists none. */
    public String flagsOf(HostAndPort replica) {
        try (Jedis sentinel = new Jedis(sentinel())) {
            for (java.util.Map<String, String> listed : sentinel.sentinelReplicas(MASTER_NAME)) {
                if (listed.get("name").equals(replica.getHost() + ":" + replica.getPort())) {
                    return listed.getOrDefault("flags", "");
                }
            }
        }
        return "";
    }

    /** Sends a signal ({@code STOP}, {@code CONT}, {@code KILL}) to a node's process, from outside. */
    public static void signal(String signal, long pid) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + pid + " failed");
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * The local address of a replica's link to its master ({@code CLIENT LIST TYPE master}'s
     * {@code laddr}), as the master sees the replica's connection: for cutting that one link alone
     * ({@link #cutReplicationLink}), e.g. while the replica is frozen and cannot be asked.
     */
    public static String replicationLinkAddress(HostAndPort replica) {
        try (Jedis jedis = new Jedis(replica)) {
            String list = new String((byte[]) jedis.sendCommand(Protocol.Command.CLIENT, "LIST", "TYPE", "master"));
            for (String field : list.trim().split("\\s+")) {
                if (field.startsWith("laddr=")) {
                    return field.substring("laddr=".length());
                }
            }
        }
        throw new IllegalStateException("no link to a master on " + replica);
    }

    /** Closes, on the master, the connection of one replica (by {@link #replicationLinkAddress}): a cut of that link alone. */
    public static void cutReplicationLink(HostAndPort master, String replicaLinkAddress) {
        try (Jedis jedis = new Jedis(master)) {
            jedis.sendCommand(Protocol.Command.CLIENT, "KILL", "ADDR", replicaLinkAddress);
        }
    }

    /** The replicas a Sentinel lists for the master ({@code SENTINEL REPLICAS}), name to flags. */
    public java.util.Map<String, String> listedReplicas(int sentinel) {
        try (Jedis jedis = new Jedis(new HostAndPort("127.0.0.1", sentinelPorts.get(sentinel)))) {
            java.util.Map<String, String> listed = new java.util.TreeMap<>();
            for (java.util.Map<String, String> replica : jedis.sentinelReplicas(MASTER_NAME)) {
                listed.put(replica.get("name"), replica.getOrDefault("flags", "") + " priority="
                        + replica.getOrDefault("slave-priority", "?"));
            }
            return listed;
        }
    }

    /** {@code SENTINEL SET} on one Sentinel only (index as started), e.g. its own {@code down-after-milliseconds}. */
    public void sentinelSet(int sentinel, String option, String value) {
        try (Jedis jedis = new Jedis(new HostAndPort("127.0.0.1", sentinelPorts.get(sentinel)))) {
            jedis.sendCommand(Protocol.Command.SENTINEL, "SET", MASTER_NAME, option, value);
        }
    }

    /** One Sentinel's {@code SENTINEL MASTER} field for the master (e.g. {@code down-after-milliseconds}, {@code config-epoch}). */
    public String sentinelMasterField(int sentinel, String field) {
        try (Jedis jedis = new Jedis(new HostAndPort("127.0.0.1", sentinelPorts.get(sentinel)))) {
            return jedis.sentinelMaster(MASTER_NAME).get(field);
        }
    }

    /** Connections a Sentinel has accepted so far ({@code INFO stats}): tells which one a client keeps asking. */
    public long connectionsReceived(int sentinel) {
        try (Jedis jedis = new Jedis(new HostAndPort("127.0.0.1", sentinelPorts.get(sentinel)))) {
            return jedis.info("stats").lines().filter(l -> l.startsWith("total_connections_received:"))
                    .map(l -> Long.parseLong(l.substring(l.indexOf(':') + 1).trim())).findFirst().orElse(-1L);
        }
    }

    /** How many Sentinels the topology runs. */
    public int sentinels() {
        return sentinelPorts.size();
    }

    /** The two replicas as started (one of them is the master after a failover). */
    public List<HostAndPort> replicas() {
        return replicaPorts.stream().map(port -> new HostAndPort("127.0.0.1", port)).toList();
    }

    /**
     * The replicas now: every node started as master or replica but the master the Sentinels name, in
     * the order started (after a failover a method before this one may have made a replica the master).
     */
    public List<HostAndPort> replicasNow() {
        HostAndPort master = master();
        return dataPorts.stream().map(port -> new HostAndPort("127.0.0.1", port)).filter(node -> !node.equals(master))
                .toList();
    }

    private boolean ready() {
        try (Jedis sentinel = new Jedis(sentinel())) {
            List<String> master = sentinel.sentinelGetMasterAddrByName(MASTER_NAME);
            try (Jedis jedis = new Jedis(master.get(0), Integer.parseInt(master.get(1)))) {
                long online = jedis.info("replication").lines().filter(l -> l.matches("slave\\d+:.*state=online.*"))
                        .count();
                Object quorum = sentinel.sendCommand(Protocol.Command.SENTINEL, "CKQUORUM", MASTER_NAME);
                return online == replicaCount && new String((byte[]) quorum).startsWith("OK 3");
            }
        } catch (RuntimeException notYet) {
            return false;
        }
    }

    /**
     * Starts a {@code redis-server} again on a killed master's port as a replica of the master the
     * Sentinels promoted (as an operator brings a killed master back), once the failover is over on every
     * Sentinel ({@link #awaitFailoverOver}: brought back earlier, the Sentinels may end split for good);
     * returns that master. Stopped with the rest after the class.
     */
    public HostAndPort restartAsReplica(HostAndPort node) {
        HostAndPort agreed = awaitFailoverOver(node, Duration.ofSeconds(30));
        try {
            instances.add(server(node.getPort(), agreed.getPort()));
        } catch (IOException e) {
            throw new IllegalStateException("cannot restart " + node, e);
        }
        return agreed;
    }

    /** Replicas the master names online now ({@code INFO replication}). */
    public long onlineReplicas() {
        try (Jedis jedis = new Jedis(master())) {
            return jedis.info("replication").lines().filter(l -> l.matches("slave\\d+:.*state=online.*")).count();
        }
    }

    private static RedisServer server(int port, Integer masterPort) throws IOException {
        var builder = RedisServer.newRedisServer().port(port).bind("127.0.0.1")
                .setting("dir " + Files.createTempDirectory("seckill-sentinel")).setting("save \"\"")
                .setting("appendonly no");
        if (masterPort != null) {
            builder.setting("replicaof 127.0.0.1 " + masterPort);
        }
        RedisServer server = builder.build();
        server.start();
        return server;
    }

    /**
     * Every event a Sentinel publishes ({@code +sdown}, {@code +odown}, {@code +try-failover},
     * {@code +switch-master}, {@code +convert-to-slave}, {@code +slave-reconf-sent}, {@code +tilt}, …) on
     * its own Pub/Sub channels, kept with the time it arrived: who did what to whom, for a failure's message.
     */
    private void listenTo(int sentinelPort) {
        Jedis subscriber = new Jedis("127.0.0.1", sentinelPort);
        subscribers.add(subscriber);
        Thread.ofPlatform().daemon().name("sentinel-events-" + sentinelPort).start(() -> {
            try {
                subscriber.psubscribe(new JedisPubSub() {
                    @Override
                    public void onPMessage(String pattern, String channel, String message) {
                        published.add(LocalTime.now() + " sentinel " + sentinelPort + " " + channel + " " + message);
                        while (published.size() > 5_000) {
                            published.pollFirst();
                        }
                    }
                }, "*");
            } catch (RuntimeException closed) {
                // the topology is stopping, or the Sentinel is gone
            }
        });
    }

    /**
     * The Sentinels' events so far ({@link #listenTo}), one per line, oldest first.
     */
    public String events() {
        return String.join("\n", published);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        System.clearProperty("seckill.redis.uri");
        try {
            // every event they published, beside the surefire reports
            Files.write(Path.of("target", "sentinel-topology-" + context.getRequiredTestClass().getSimpleName() + ".log"),
                    List.copyOf(published));
        } catch (IOException | RuntimeException notWritten) {
            // a diagnostic only
        }
        for (Jedis subscriber : subscribers) {
            try {
                subscriber.disconnect();
            } catch (RuntimeException alreadyClosed) {
                // its Sentinel is gone
            }
        }
        for (RedisInstance instance : instances) {
            try {
                instance.stop();
            } catch (IOException | RuntimeException alreadyGone) {
                // the master a test killed is gone already
            }
        }
    }
}
