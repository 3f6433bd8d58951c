package seckill.system;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/**
 * A Redis Cluster of three masters with one replica each, real {@code redis-server} processes (from
 * the PATH, as CI's cluster phase uses) on free loopback ports with a small
 * {@code cluster-node-timeout}, so a master killed with SIGKILL is failed over within seconds. Started
 * before the test class's service and named to it by {@code seckill.redis.uri} (a system property
 * outranks the environment). Every process is stopped by its PID after the class.
 */
public final class ClusterTopology implements AfterAllCallback {

    private final Path dir;
    private final List<Integer> ports = new ArrayList<>();
    private final Map<Integer, Process> processes = new ConcurrentHashMap<>();

    public ClusterTopology() {
        try {
            dir = Files.createTempDirectory("seckill-cluster");
            for (int i = 0; i < 6; i++) {
                startOnAFreePort();
            }
            List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
            ports.forEach(port -> create.add("127.0.0.1:" + port));
            create.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
            Process creating = new ProcessBuilder(create).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("create.log").toFile()).start();
            if (creating.waitFor() != 0) {
                throw new IllegalStateException("redis-cli --cluster create failed: "
                        + Files.readString(dir.resolve("create.log")));
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the cluster", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        SaleFixture.await("three masters, each with a replica online", Duration.ofSeconds(60), this::ready);
        System.setProperty("seckill.redis.uri", uri());
    }

    public String uri() {
        return "redis-cluster://" + ports.stream().map(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
    }

    /** The nodes that are masters now, as the live nodes see it. */
    public List<HostAndPort> masters() {
        List<HostAndPort> masters = new ArrayList<>();
        for (int port : ports) {
            if (processes.get(port) != null && processes.get(port).isAlive() && answers(port)) {
                try (Jedis jedis = new Jedis("127.0.0.1", port)) {
                    if (jedis.info("replication").contains("role:master")) {
                        masters.add(new HostAndPort("127.0.0.1", port));
                    }
                }
            }
        }
        return masters;
    }

    /** SIGKILL, from outside: whatever the node had not sent its replica is gone with it. */
    public void kill(HostAndPort node) {
        processes.get(node.getPort()).destroyForcibly();
    }

    /** Starts a killed node again on its port and files: it rejoins the cluster as a replica of its successor. */
    public void restart(HostAndPort node) {
        try {
            start(node.getPort());
        } catch (IOException e) {
            throw new IllegalStateException("cannot restart " + node, e);
        }
    }

    /** Whether every live master serves slots, has a replica online, and the cluster says ok. */
    public boolean ready() {
        try {
            List<HostAndPort> masters = masters();
            if (masters.size() != 3) {
                return false;
            }
            for (HostAndPort master : masters) {
                try (Jedis jedis = new Jedis(master)) {
                    if (!jedis.clusterInfo().contains("cluster_state:ok")
                            || !jedis.info("replication").contains("connected_slaves:1")
                            || !jedis.info("replication").contains("state=online")) {
                        return false;
                    }
                }
            }
            return true;
        } catch (RuntimeException notYet) {
            return false;
        }
    }

    /** Whether the cluster serves every slot again with three masters (whatever their replicas). */
    public boolean failedOver() {
        try {
            List<HostAndPort> masters = masters();
            if (masters.size() != 3) {
                return false;
            }
            for (HostAndPort master : masters) {
                try (Jedis jedis = new Jedis(master)) {
                    if (!jedis.clusterInfo().contains("cluster_state:ok")) {
                        return false;
                    }
                }
            }
            return true;
        } catch (RuntimeException notYet) {
            return false;
        }
    }

    private void start(int port) throws IOException {
        Path node = dir.resolve(Integer.toString(port));
        Files.createDirectories(node);
        File log = node.resolve("log").toFile();
        Process process = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--cluster-enabled", "yes", "--cluster-config-file", node.resolve("nodes.conf").toString(),
                "--cluster-node-timeout", "1000", "--cluster-replica-validity-factor", "0",
                "--dir", node.toString(), "--save", "", "--appendonly", "no")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start();
        processes.put(port, process);
    }

    /**
     * The pair was free when checked, but another process (an outgoing connection's ephemeral port)
     * can take it before redis-server binds; the server then exits at once and the node is started
     * again on another pair instead of waiting for a server that is gone.
     */
    private void startOnAFreePort() throws IOException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            int port = freePort();
            start(port);
            Process process = processes.get(port);
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (process.isAlive() && !answers(port) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            if (process.isAlive() && answers(port)) {
                ports.add(port);
                return;
            }
            process.destroyForcibly().waitFor();
            processes.remove(port);
            if (attempt == 5) {
                throw new IllegalStateException("redis-server on " + port + " did not start: "
                        + Files.readString(dir.resolve(Integer.toString(port)).resolve("log")));
            }
        }
    }

    private static boolean answers(int port) {
        try (Jedis jedis = new Jedis("127.0.0.1", port)) {
            return "PONG".equals(jedis.ping());
        } catch (RuntimeException notYet) {
            return false;
        }
    }

    /** A free port below 55536 whose cluster bus port (+10000) is free too. */
    private int freePort() throws IOException {
        java.util.Random random = new java.util.Random();
        for (int attempt = 0; attempt < 1000; attempt++) {
            int port = 20000 + random.nextInt(20000);
            if (!ports.contains(port) && free(port) && free(port + 10000)) {
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

    @Override
    public void afterAll(ExtensionContext context) {
        System.clearProperty("seckill.redis.uri");
        processes.values().forEach(Process::destroyForcibly);
    }
}
