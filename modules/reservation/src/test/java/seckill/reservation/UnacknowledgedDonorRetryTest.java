package seckill.reservation;

import java.io.IOException;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.util.JedisClusterCRC16;
import seckill.redis.CoalescingSettings;
import seckill.redis.ReplicaAcks;
import seckill.reservation.api.PreheatStock;
import seckill.reservation.api.ReservationOutcome;
import seckill.reservation.api.ReservationUnavailable;
import seckill.reservation.api.ReserveStock;
import seckill.reservation.redis.StockBuckets;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.instanceOf;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The in-doubt donor retry (#29 item 5) answers only what a replica holds. A Redis Cluster of three
 * masters with a replica each (real redis-server processes, started and stopped by PID); a hot SKU's
 * two buckets live on two masters. A buyer whose home bucket is dry is served by the donor; the
 * donor master's replica freezes (SIGSTOP, its link up) just before the take, so the take is on the
 * donor master only and its call is in doubt. The buyer's retry with the same requestId asks the
 * donor, which answers TAKEN from that master alone: a failover of the donor now would lose the
 * take the retry reported, so the answer must wait for the same acknowledgement as a reservation and
 * stay in doubt. (On one master the home bucket's own acknowledgement covers the take; here it
 * cannot: the home bucket has another master.) Once the replica is thawed the retry finds the unit.
 */
class UnacknowledgedDonorRetryTest {

    private static final List<Process> SERVERS = new ArrayList<>();
    private static final List<Integer> PORTS = new ArrayList<>();
    private static Path dir;

    @BeforeAll
    static void startCluster() throws Exception {
        dir = Files.createTempDirectory("seckill-donor-cluster");
        for (int i = 0; i < 6; i++) {
            startNode();
        }
        List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
        PORTS.forEach(port -> create.add("127.0.0.1:" + port));
        create.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
        Process creating = new ProcessBuilder(create).redirectErrorStream(true)
                .redirectOutput(dir.resolve("create.log").toFile()).start();
        assertThat(Files.exists(dir), is(true));
        assertThat("redis-cli --cluster create", creating.waitFor(), is(0));
        await(() -> masters().size() == 3 && masters().stream().allMatch(m -> {
            try (Jedis jedis = new Jedis("127.0.0.1", m)) {
                return jedis.clusterInfo().contains("cluster_state:ok")
                        && jedis.info("replication").contains("state=online");
            }
        }));
    }

    /**
     * Starts one node on a free port pair. The pair is checked free before the start, but another
     * process (an outgoing connection's ephemeral port, say) can take it before redis-server binds:
     * then the server exits at once and the node is started again on another pair (CI saw a start
     * wait its whole minute for a server that had exited).
     */
    private static void startNode() throws Exception {
        for (int attempt = 1; ; attempt++) {
            int port = freePort();
            Path node = Files.createDirectories(dir.resolve(Integer.toString(port)));
            Process server = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--cluster-enabled", "yes", "--cluster-config-file", node.resolve("nodes.conf").toString(),
                    "--cluster-node-timeout", "5000", "--dir", node.toString(), "--save", "", "--appendonly", "no")
                    .redirectErrorStream(true).redirectOutput(node.resolve("log").toFile()).start();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (server.isAlive() && !answers(port) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            if (server.isAlive() && answers(port)) {
                SERVERS.add(server);
                PORTS.add(port);
                return;
            }
            server.destroyForcibly().waitFor();
            if (attempt == 5) {
                throw new AssertionError("redis-server on " + port + " did not start: "
                        + Files.readString(node.resolve("log")));
            }
        }
    }

    @AfterAll
    static void stopCluster() {
        // only the processes this class started, by their PIDs
        SERVERS.forEach(p -> ProcessHandle.of(p.pid()).ifPresent(ProcessHandle::destroyForcibly));
    }

    @Test
    void aTakeFoundOnlyOnTheDonorMasterIsStillInDoubt() throws Exception {
        long activity = 80;
        while (masterOf(StockBuckets.of(activity, 1, 2).stock(0)) == masterOf(StockBuckets.of(activity, 1, 2).stock(1))) {
            activity++;
        }
        StockBuckets keys = StockBuckets.of(activity, 1, 2);
        int donorMaster = masterOf(keys.stock(1));
        int donorReplica = replicaOf(donorMaster);
        long buyer = 1;
        while (StockBuckets.homeBucket(buyer, 2) != 0) {
            buyer++;
        }
        Set<HostAndPort> seeds = Set.of(new HostAndPort("127.0.0.1", PORTS.getFirst()));
        AtomicBoolean armed = new AtomicBoolean(false);
        long replicaPid = processId(donorReplica);
        try (JedisCluster redis = new JedisCluster(seeds) {
            @Override
            public Object evalsha(String sha, List<String> keyList, List<String> args) {
                // claim.lua, the home claim written just before the take: the donor's replica freezes here
                if (keyList.size() == 1 && keyList.getFirst().endsWith(":buyers") && armed.compareAndSet(true, false)) {
                    signal("STOP", replicaPid);
                }
                return super.evalsha(sha, keyList, args);
            }
        }) {
            TestStock stock = reservingStock(redis);
            try {
                stock.preheat(new PreheatStock(activity, 1, 10, 2, Instant.now().plusSeconds(600)));
                try (Jedis home = new Jedis("127.0.0.1", masterOf(keys.stock(0)))) {
                    home.set(keys.stock(0), "0");
                    assertThat(home.waitReplicas(1, 5_000), is(1L));
                }
                ReserveStock purchase = new ReserveStock(activity, 1, 2, buyer, 1, "donor-retry");
                armed.set(true);
                try (Jedis donor = new Jedis("127.0.0.1", donorMaster)) {
                    ReservationUnavailable first = assertThrows(ReservationUnavailable.class,
                            () -> stock.reserve(purchase), "a take no replica acknowledged is not a reservation");
                    assertThat(first.inDoubt(), is(true));
                    assertThat("the replica froze before the take", armed.get(), is(false));
                    assertThat("the take is on the donor master", donor.get(keys.stock(1)), is("4"));

                    ReservationUnavailable retried = assertThrows(ReservationUnavailable.class,
                            () -> stock.reserve(purchase).toString(),
                            "the retry answered a take that only the donor master holds");
                    assertThat(retried.inDoubt(), is(true));
                } finally {
                    signal("CONT", replicaPid);
                }
                // once the replica holds it, the retry finds the unit the take got: exactly one
                await(() -> {
                    try {
                        return stock.reserve(purchase) instanceof ReservationOutcome.AlreadyReserved;
                    } catch (ReservationUnavailable notYet) {
                        return false;
                    }
                });
                ReservationOutcome found = stock.reserve(purchase);
                assertThat(found, instanceOf(ReservationOutcome.AlreadyReserved.class));
                try (Jedis onReplica = new Jedis("127.0.0.1", donorReplica)) {
                    onReplica.readonly();
                    assertThat(onReplica.get(keys.stock(1)), is("4"));
                    assertThat(onReplica.xlen(keys.events(1)), is(1L));
                }
                assertThat(redis.hget(keys.buyers(0), Long.toString(buyer)),
                        is(((ReservationOutcome.AlreadyReserved) found).id().toString()));
                assertThat(redis.xlen(keys.events(0)), is(0L));
            } finally {
                stock.releaseLease();
            }
        }
    }

    private static TestStock reservingStock(JedisCluster redis) {
        TestStock stock = TestStock.leased(redis, Clock.systemUTC(), new ReservationSettings(
                "ordering", 2_000, Duration.ofSeconds(30), new CoalescingSettings(false, 32, 0, 1),
                new ReplicaAcks(1, 100)));
        return stock;
    }

    private static List<Integer> masters() {
        List<Integer> masters = new ArrayList<>();
        for (int port : PORTS) {
            try (Jedis jedis = new Jedis("127.0.0.1", port)) {
                if (jedis.info("replication").contains("role:master")) {
                    masters.add(port);
                }
            } catch (RuntimeException notYet) {
                // not answering
            }
        }
        return masters;
    }

    /** The port of the master serving the key's slot, from CLUSTER NODES. */
    private static int masterOf(String key) {
        int slot = JedisClusterCRC16.getSlot(key);
        try (Jedis jedis = new Jedis("127.0.0.1", PORTS.getFirst())) {
            for (String line : jedis.clusterNodes().split("\n")) {
                String[] f = line.split(" ");
                if (!f[2].contains("master")) {
                    continue;
                }
                for (int i = 8; i < f.length; i++) {
                    String[] range = f[i].split("-");
                    int from = Integer.parseInt(range[0]);
                    int to = range.length > 1 ? Integer.parseInt(range[1]) : from;
                    if (slot >= from && slot <= to) {
                        return Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1, f[1].indexOf('@')));
                    }
                }
            }
        }
        throw new IllegalStateException("no master serves slot " + slot);
    }

    private static int replicaOf(int master) {
        try (Jedis jedis = new Jedis("127.0.0.1", master)) {
            String line = jedis.info("replication").lines().filter(l -> l.startsWith("slave0:")).findFirst().orElseThrow();
            String port = line.substring(line.indexOf("port=") + 5);
            return Integer.parseInt(port.substring(0, port.indexOf(',')));
        }
    }

    private static long processId(int port) {
        try (Jedis jedis = new Jedis("127.0.0.1", port)) {
            return jedis.info("server").lines().filter(l -> l.startsWith("process_id:"))
                    .map(l -> Long.parseLong(l.substring("process_id:".length()).trim())).findFirst().orElseThrow();
        }
    }

    private static void signal(String signal, long pid) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
            assertThat("kill -" + signal + " " + pid, kill.waitFor(), is(0));
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean answers(int port) {
        try (Jedis jedis = new Jedis("127.0.0.1", port)) {
            return "PONG".equals(jedis.ping());
        } catch (RuntimeException notYet) {
            return false;
        }
    }

    private static void await(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 60 s");
            }
            Thread.sleep(50);
        }
    }

    /** A free port below 55536 whose cluster bus port (+10000) is free too. */
    private static int freePort() throws IOException {
        java.util.Random random = new java.util.Random();
        for (int attempt = 0; attempt < 1000; attempt++) {
            int port = 20000 + random.nextInt(20000);
            if (!PORTS.contains(port) && free(port) && free(port + 10000)) {
                return port;
            }
        }
        throw new IOException("no free loopback port pair");
    }

    private static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, java.net.InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException taken) {
            return false;
        }
    }
}
