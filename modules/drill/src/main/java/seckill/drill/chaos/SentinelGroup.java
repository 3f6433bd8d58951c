package seckill.drill.chaos;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * A chaos run's Sentinel topology: one master, two replicas and three Sentinels (quorum 2, a master
 * down after 1 s, failover timeout 5 s), the machine's {@code redis-server} on free loopback ports,
 * stopped by PID. The instances reach it through {@code redis-sentinel://…/seckill} and require one
 * replica to acknowledge each reservation (the service's default behind Sentinel).
 */
final class SentinelGroup implements ReplicatedRedis {

    static final String MASTER_NAME = "seckill";

    private final List<RedisNode> data = new ArrayList<>();
    private final List<RedisNode> sentinels = new ArrayList<>();

    private SentinelGroup() {
    }

    static SentinelGroup start(Path dir) {
        SentinelGroup group = new SentinelGroup();
        // a runner JVM that is stopped (Ctrl-C, a test timeout) still stops its nodes by PID
        Runtime.getRuntime().addShutdownHook(new Thread(group::close, "chaos-redis-stop"));
        try {
            RedisNode master = RedisNode.on("master", dir, false, List.of());
            group.data.add(master);
            master.start();
            master.awaitUp(Duration.ofSeconds(10));
            for (int i = 0; i < 2; i++) {
                RedisNode replica = RedisNode.on("replica" + i, dir, false,
                        List.of("--replicaof", "127.0.0.1", Integer.toString(master.port())));
                group.data.add(replica);
                replica.start();
                replica.awaitUp(Duration.ofSeconds(10));
            }
            for (int i = 0; i < 3; i++) {
                RedisNode sentinel = RedisNode.sentinel("sentinel" + i, dir, List.of(
                        "sentinel resolve-hostnames no",
                        "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + master.port() + " 2",
                        "sentinel down-after-milliseconds " + MASTER_NAME + " 1000",
                        "sentinel failover-timeout " + MASTER_NAME + " 5000",
                        "sentinel parallel-syncs " + MASTER_NAME + " 2"));
                group.sentinels.add(sentinel);
                sentinel.start();
                sentinel.awaitUp(Duration.ofSeconds(10));
            }
            if (!ReplicatedRedis.await(RECOVERY, group::whole)) {
                throw new IllegalStateException("the Sentinel group did not come up whole (two replicas in sync, a"
                        + " quorum of three Sentinels); logs under " + dir);
            }
            return group;
        } catch (RuntimeException e) {
            group.close();
            throw e;
        }
    }

    @Override
    public String serviceUri() {
        return "redis-sentinel://" + sentinels.stream().map(s -> "127.0.0.1:" + s.port())
                .collect(Collectors.joining(",")) + "/" + MASTER_NAME;
    }

    @Override
    public List<String> serviceProperties() {
        return List.of("seckill.redis.min-replica-acks=all", "seckill.redis.replica-ack-timeout-millis=100",
                "seckill.redis.timeout-millis=1000");
    }

    @Override
    public UnifiedJedis reader() {
        RedisNode master = master(0).orElseThrow(() -> new IllegalStateException("the Sentinels name no live master"));
        return RedisClient.create(URI.create("redis://127.0.0.1:" + master.port()));
    }

    @Override
    public int shards() {
        return 1;
    }

    /** The master the Sentinels name now (the first that answers), if it is a live node of the group. */
    @Override
    public Optional<RedisNode> master(int shard) {
        for (RedisNode sentinel : sentinels) {
            if (!sentinel.alive()) {
                continue;
            }
            try (Jedis jedis = sentinel.connect()) {
                List<String> address = jedis.sentinelGetMasterAddrByName(MASTER_NAME);
                int port = Integer.parseInt(address.get(1));
                return data.stream().filter(n -> n.port() == port && n.alive()).findFirst();
            } catch (RuntimeException notThisOne) {
                // the next Sentinel
            }
        }
        return Optional.empty();
    }

    /** One shard: whatever the key, the master the Sentinels name now. */
    @Override
    public Optional<RedisNode> masterOf(String key) {
        return master(0);
    }

    @Override
    public Optional<RedisNode> replica(int shard, int which) {
        Optional<RedisNode> master = master(shard);
        List<RedisNode> replicas = data.stream().filter(RedisNode::alive)
                .filter(n -> master.map(m -> m != n).orElse(true)).sorted(Comparator.comparingInt(RedisNode::port))
                .toList();
        return replicas.isEmpty() ? Optional.empty() : Optional.of(replicas.get(which % replicas.size()));
    }

    @Override
    public List<RedisNode> dataNodes() {
        return data;
    }

    @Override
    public synchronized String rejoin(RedisNode killed) {
        if (killed.alive()) {
            return killed + " is running";
        }
        long start = System.nanoTime();
        boolean failedOver = ReplicatedRedis.await(RECOVERY, () -> master(0).filter(m -> m != killed).isPresent());
        long failover = (System.nanoTime() - start) / 1_000_000;
        // then past the failover on every Sentinel: the same master at one config epoch and none failing over
        // still. A node brought back while the leader's failover is open (a replica that does not follow holds
        // it open up to the failover timeout) can be promoted by the others in a second failover whose epoch
        // the leader takes without switching: the Sentinels then stay split for good (docs/runbook.md)
        boolean agreed = failedOver && ReplicatedRedis.await(RECOVERY, this::sentinelsAgree);
        long agreement = (System.nanoTime() - start) / 1_000_000;
        Optional<RedisNode> promoted = master(0).filter(m -> m != killed);
        if (promoted.isPresent()) {
            // as a replica of the node the Sentinels promoted, as an operator restarts a node without
            // persistence behind Sentinel: started as it was, it would be an empty master until the Sentinels
            // convert it, and one they could promote (soak seed 13 on sentinel, docs/chaos.md)
            killed.start(List.of("--replicaof", "127.0.0.1", Integer.toString(promoted.get().port())));
        } else {
            // no failover: nothing to follow; the Sentinels find their old master back, empty
            killed.start();
        }
        killed.awaitUp(Duration.ofSeconds(10));
        boolean replica = ReplicatedRedis.await(RECOVERY, killed::syncedReplica);
        long synced = (System.nanoTime() - start) / 1_000_000;
        String now = master(0).map(RedisNode::toString).orElse("none");
        return (failedOver ? "failed over to " + now + " (" + failover + " ms waited after the fault's length), "
                + (agreed ? "every Sentinel agreeing " + agreement + " ms after" : "Sentinels NOT agreeing within "
                + RECOVERY.toSeconds() + " s more") : "NO failover within " + RECOVERY.toSeconds() + " s") + "; restarted, "
                + (replica ? "a replica in sync " + synced + " ms after" : "NOT a replica in sync after " + synced + " ms");
    }

    /** Every live Sentinel names the same master at the same config epoch, and none is failing over. */
    private boolean sentinelsAgree() {
        Set<String> named = new HashSet<>();
        for (RedisNode sentinel : sentinels) {
            if (!sentinel.alive()) {
                continue;
            }
            try (Jedis jedis = sentinel.connect()) {
                Map<String, String> master = jedis.sentinelMaster(MASTER_NAME);
                if (master.getOrDefault("flags", "").contains("failover_in_progress")) {
                    return false;
                }
                named.add(master.get("ip") + ":" + master.get("port") + "@" + master.get("config-epoch"));
            } catch (RuntimeException notAnswering) {
                return false;
            }
        }
        return named.size() == 1;
    }

    @Override
    public boolean whole() {
        Optional<RedisNode> master = master(0);
        if (master.isEmpty() || !master.get().master()) {
            return false;
        }
        boolean replicas = data.stream().filter(n -> n != master.get()).allMatch(RedisNode::syncedReplica);
        long online = master.get().info("replication").map(i -> i.lines()
                .filter(l -> l.matches("slave\\d+:.*state=online.*")).count()).orElse(0L);
        boolean quorum = sentinels.stream().filter(RedisNode::alive).findFirst().map(s -> {
            try (Jedis jedis = s.connect()) {
                Object reply = jedis.sendCommand(Protocol.Command.SENTINEL, "CKQUORUM", MASTER_NAME);
                return new String((byte[]) reply).startsWith("OK 3");
            } catch (RuntimeException notYet) {
                return false;
            }
        }).orElse(false);
        return replicas && online == data.size() - 1 && quorum;
    }

    @Override
    public String heal() {
        data.forEach(RedisNode::thaw);
        unpause();
        List<String> done = new ArrayList<>();
        data.stream().filter(n -> !n.alive()).forEach(n -> done.add(n + ": " + rejoin(n)));
        long start = System.nanoTime();
        boolean whole = ReplicatedRedis.await(RECOVERY, this::whole);
        done.add((whole ? "whole" : "NOT whole") + " after " + (System.nanoTime() - start) / 1_000_000 + " ms, master "
                + master(0).map(RedisNode::toString).orElse("none"));
        return String.join("; ", done);
    }

    @Override
    public void close() {
        Stream.concat(sentinels.stream(), data.stream()).forEach(RedisNode::stop);
    }
}
