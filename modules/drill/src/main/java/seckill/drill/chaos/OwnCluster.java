package seckill.drill.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.UnifiedJedis;

/**
 * A chaos run's Redis Cluster: three masters, each with one replica, the machine's
 * {@code redis-server} on free loopback ports (with their bus ports), {@code cluster-node-timeout}
 * 1 s so a killed master is failed over within seconds, created with {@code redis-cli --cluster
 * create}, stopped by PID. Shard {@code i} is the master serving slot range {@code i} of three (as
 * {@code redis-cli} assigns them), whichever node that is after failovers. The instances reach it
 * through {@code redis-cluster://…}, require one replica to acknowledge each reservation and keep
 * three rate-limit partitions (one per master), as the cluster tests do.
 */
final class OwnCluster implements ReplicatedRedis {

    private static final int SLOTS = 16384;

    private final Path dir;
    private final List<RedisNode> nodes = new ArrayList<>();

    private OwnCluster(Path dir) {
        this.dir = dir;
    }

    static OwnCluster start(Path dir) {
        OwnCluster cluster = new OwnCluster(dir);
        // a runner JVM that is stopped (Ctrl-C, a test timeout) still stops its nodes by PID
        Runtime.getRuntime().addShutdownHook(new Thread(cluster::close, "chaos-redis-stop"));
        try {
            for (int i = 0; i < 6; i++) {
                // nodes.conf in the node's own directory (redis-server resolves it against --dir)
                RedisNode node = RedisNode.on("node" + i, dir, true, List.of("--cluster-enabled", "yes",
                        "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "1000",
                        "--cluster-replica-validity-factor", "0"));
                cluster.nodes.add(node);
                node.start();
            }
            for (RedisNode node : cluster.nodes) {
                node.awaitUp(Duration.ofSeconds(10));
            }
            List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
            cluster.nodes.forEach(n -> create.add("127.0.0.1:" + n.port()));
            create.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
            Path log = dir.resolve("create.log");
            Process creating = new ProcessBuilder(create).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (creating.waitFor() != 0) {
                throw new IllegalStateException("redis-cli --cluster create failed: " + Files.readString(log));
            }
            if (!ReplicatedRedis.await(RECOVERY, cluster::whole)) {
                throw new IllegalStateException("the cluster did not come up whole (three masters, each with a replica"
                        + " in sync); logs under " + dir);
            }
            return cluster;
        } catch (IOException e) {
            cluster.close();
            throw new UncheckedIOException("cannot start the cluster (needs redis-server and redis-cli)", e);
        } catch (InterruptedException e) {
            cluster.close();
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    @Override
    public String serviceUri() {
        return "redis-cluster://" + nodes.stream().map(n -> "127.0.0.1:" + n.port()).collect(Collectors.joining(","));
    }

    @Override
    public List<String> serviceProperties() {
        return List.of("seckill.redis.min-replica-acks=1", "seckill.redis.replica-ack-timeout-millis=100",
                "seckill.redis.timeout-millis=1000", "seckill.admission.rate-limit-partitions=3");
    }

    @Override
    public UnifiedJedis reader() {
        Set<HostAndPort> seeds = new LinkedHashSet<>();
        nodes.stream().filter(RedisNode::answers).forEach(n -> seeds.add(n.address()));
        return new JedisCluster(seeds, DefaultJedisClientConfig.builder().timeoutMillis(2000).build());
    }

    @Override
    public int shards() {
        return 3;
    }

    /** The live node that says it is a master and serves the middle slot of range {@code shard}. */
    @Override
    public Optional<RedisNode> master(int shard) {
        return masterOfSlot((int) ((long) SLOTS * shard / 3 + SLOTS / 6));
    }

    /** The live master that serves the slot of {@code key} (its hash tag's, {@code CLUSTER KEYSLOT}'s arithmetic). */
    @Override
    public Optional<RedisNode> masterOf(String key) {
        return masterOfSlot(redis.clients.jedis.util.JedisClusterCRC16.getSlot(key));
    }

    private Optional<RedisNode> masterOfSlot(int slot) {
        for (RedisNode node : nodes) {
            if (!node.answers() || !node.master()) {
                continue;
            }
            try (Jedis jedis = node.connect()) {
                // its own view of its slots: the "myself" line of CLUSTER NODES
                String myself = jedis.clusterNodes().lines().filter(l -> l.contains("myself")).findFirst().orElse("");
                if (serves(myself, slot)) {
                    return Optional.of(node);
                }
            } catch (RuntimeException notNow) {
                // the next node
            }
        }
        return Optional.empty();
    }

    /** The {@code which}-th live replica (modulo their number) the shard's master names in {@code INFO replication}. */
    @Override
    public Optional<RedisNode> replica(int shard, int which) {
        Optional<RedisNode> master = master(shard);
        if (master.isEmpty()) {
            return Optional.empty();
        }
        List<Integer> ports = master.get().info("replication").map(i -> i.lines()
                .filter(l -> l.matches("slave\\d+:.*")).map(l -> Integer.parseInt(
                        l.replaceAll(".*port=(\\d+).*", "$1"))).toList()).orElse(List.of());
        List<RedisNode> replicas = nodes.stream().filter(n -> ports.contains(n.port()) && n.alive()).toList();
        return replicas.isEmpty() ? Optional.empty() : Optional.of(replicas.get(which % replicas.size()));
    }

    @Override
    public List<RedisNode> dataNodes() {
        return nodes;
    }

    @Override
    public synchronized String rejoin(RedisNode killed) {
        if (killed.alive()) {
            return killed + " is running";
        }
        long start = System.nanoTime();
        // every shard served by a live master again (the killed one's replica promoted), the cluster ok
        boolean failedOver = ReplicatedRedis.await(RECOVERY, this::servesEverySlot);
        long failover = (System.nanoTime() - start) / 1_000_000;
        killed.start();
        killed.awaitUp(Duration.ofSeconds(10));
        // started with its nodes.conf: it learns that its slots have a newer master and becomes its replica
        boolean replica = ReplicatedRedis.await(RECOVERY, killed::syncedReplica);
        long synced = (System.nanoTime() - start) / 1_000_000;
        String of = killed.info("replication").map(i -> i.lines().filter(l -> l.startsWith("master_port:"))
                .findFirst().orElse("?")).orElse("?").trim();
        return (failedOver ? "failed over (" + failover + " ms waited after the fault's length)" : "NO failover within " + RECOVERY.toSeconds() + " s")
                + "; restarted with its nodes.conf, " + (replica ? "a replica in sync (" + of + ") " + synced + " ms after"
                : "NOT a replica in sync after " + synced + " ms");
    }

    @Override
    public boolean whole() {
        if (!nodes.stream().allMatch(RedisNode::answers) || !servesEverySlot()) {
            return false;
        }
        for (int shard = 0; shard < shards(); shard++) {
            Optional<String> info = master(shard).flatMap(m -> m.info("replication"));
            if (info.isEmpty() || !info.get().contains("connected_slaves:1") || !info.get().contains("state=online")) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String heal() {
        nodes.forEach(RedisNode::thaw);
        unpause();
        List<String> done = new ArrayList<>();
        nodes.stream().filter(n -> !n.alive()).forEach(n -> done.add(n + ": " + rejoin(n)));
        long start = System.nanoTime();
        boolean whole = ReplicatedRedis.await(RECOVERY, this::whole);
        done.add((whole ? "whole" : "NOT whole") + " after " + (System.nanoTime() - start) / 1_000_000 + " ms");
        return String.join("; ", done);
    }

    @Override
    public void close() {
        nodes.forEach(RedisNode::stop);
    }

    private boolean servesEverySlot() {
        for (int shard = 0; shard < shards(); shard++) {
            if (master(shard).isEmpty()) {
                return false;
            }
        }
        return nodes.stream().filter(RedisNode::answers).findFirst().map(n -> {
            try (Jedis jedis = n.connect()) {
                return jedis.clusterInfo().contains("cluster_state:ok");
            } catch (RuntimeException notYet) {
                return false;
            }
        }).orElse(false);
    }

    /** Whether a {@code CLUSTER NODES} line lists {@code slot} among its ranges. */
    private static boolean serves(String line, int slot) {
        String[] fields = line.trim().split(" ");
        for (int i = 8; i < fields.length; i++) {
            String range = fields[i];
            if (range.startsWith("[")) {
                continue;
            }
            String[] ends = range.split("-");
            try {
                int low = Integer.parseInt(ends[0]);
                int high = ends.length > 1 ? Integer.parseInt(ends[1]) : low;
                if (slot >= low && slot <= high) {
                    return true;
                }
            } catch (NumberFormatException notARange) {
                // ignore
            }
        }
        return false;
    }
}
