package seckill.drill.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/**
 * One {@code redis-server} process of a chaos run's Sentinel group or cluster: the machine's binary
 * on a free loopback port, its own directory (a cluster node keeps its {@code nodes.conf} there),
 * nothing of the data kept on disk, acted on by PID only: {@link #kill()} is SIGKILL, {@link #freeze()}
 * SIGSTOP, {@link #thaw()} SIGCONT, {@link #start()} starts it again on the same port with the same
 * arguments (appending to the same log). The runner's own reads of a node time out after half a
 * second and are never sent to a node it froze.
 */
final class RedisNode {

    static final Duration READ_TIMEOUT = Duration.ofMillis(500);

    private final String name;
    private final int port;
    private final List<String> arguments;
    private final Path dir;
    private final SignalledProcess process;

    private RedisNode(String name, int port, List<String> arguments, Path dir) {
        this.process = new SignalledProcess("redis-server " + name);
        this.name = name;
        this.port = port;
        this.arguments = arguments;
        this.dir = dir;
    }

    /**
     * A node on a free port of its own ({@code busPortToo}: the cluster bus port, +10000, free as well),
     * started with {@code arguments} after the common ones (port, bind, dir, no persistence); not started yet.
     */
    static RedisNode on(String name, Path parent, boolean busPortToo, List<String> arguments) {
        int port = freePort(busPortToo);
        Path dir = parent.resolve(name + "-" + port);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> all = new ArrayList<>(List.of("--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--dir", dir.toString(), "--save", "", "--appendonly", "no", "--daemonize", "no",
                // a replica that (re)joins syncs at once, not after the default 5 s of waiting for others
                "--repl-diskless-sync-delay", "0"));
        all.addAll(arguments);
        return new RedisNode(name, port, all, dir);
    }

    /** A Sentinel on a free port: {@code config} lines written to its own (writable) config file. */
    static RedisNode sentinel(String name, Path parent, List<String> config) {
        int port = freePort(false);
        Path dir = parent.resolve(name + "-" + port);
        Path file = dir.resolve("sentinel.conf");
        try {
            Files.createDirectories(dir);
            List<String> lines = new ArrayList<>(List.of("port " + port, "bind 127.0.0.1", "daemonize no",
                    "dir " + dir));
            lines.addAll(config);
            Files.write(file, lines);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new RedisNode(name, port, List.of(file.toString(), "--sentinel"), dir);
    }

    static String binary() {
        return List.of("/usr/bin/redis-server", "/usr/local/bin/redis-server").stream()
                .filter(p -> Files.isExecutable(Path.of(p))).findFirst()
                .orElseThrow(() -> new IllegalStateException("the chaos drill needs redis-server (apt-get install"
                        + " redis-server): it starts the Redis topology of the run itself"));
    }

    String name() {
        return name;
    }

    int port() {
        return port;
    }

    HostAndPort address() {
        return new HostAndPort("127.0.0.1", port);
    }

    Path dir() {
        return dir;
    }

    void start() {
        start(List.of());
    }

    /** Starts it with {@code extra} after its own arguments (a later directive wins, e.g. {@code --replicaof}). */
    void start(List<String> extra) {
        List<String> command = new ArrayList<>();
        command.add(binary());
        command.addAll(arguments);
        command.addAll(extra);
        process.start(new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("log").toFile())));
    }

    /** Waits until the node answers PING. */
    void awaitUp(Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        while (!answers()) {
            if (Instant.now().isAfter(deadline) || !alive()) {
                throw new IllegalStateException("redis-server " + name + " did not start on port " + port + "; see "
                        + dir.resolve("log"));
            }
            pause(50);
        }
    }

    /** SIGKILL: whatever it had not sent its replicas is gone with it (nothing is kept on disk). */
    void kill() {
        process.kill();
    }

    void freeze() {
        process.freeze();
    }

    void thaw() {
        process.thaw();
    }

    boolean alive() {
        return process.alive();
    }

    boolean frozen() {
        return process.frozen();
    }

    /** Whether it answers PING now (never asked while frozen: the runner does not wait on its own freeze). */
    boolean answers() {
        if (!alive() || frozen()) {
            return false;
        }
        try (Jedis jedis = connect()) {
            return "PONG".equals(jedis.ping());
        } catch (RuntimeException notNow) {
            return false;
        }
    }

    /** {@code INFO <section>} of a live, unfrozen node; empty when it does not answer. */
    Optional<String> info(String section) {
        if (!alive() || frozen()) {
            return Optional.empty();
        }
        try (Jedis jedis = connect()) {
            return Optional.of(jedis.info(section));
        } catch (RuntimeException notNow) {
            return Optional.empty();
        }
    }

    /** Whether it says it is a master ({@code INFO replication}); false when it does not answer. */
    boolean master() {
        return info("replication").map(i -> i.contains("role:master")).orElse(false);
    }

    /** Whether it is a replica whose link to its master is up. */
    boolean syncedReplica() {
        return info("replication").map(i -> i.contains("role:slave") && i.contains("master_link_status:up"))
                .orElse(false);
    }

    /** A connection that gives up after half a second: the runner never hangs on a node. */
    Jedis connect() {
        return new Jedis(address(), DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis((int) READ_TIMEOUT.toMillis())
                .socketTimeoutMillis((int) READ_TIMEOUT.toMillis()).build());
    }

    /** Stops it for good: continued first if frozen, then SIGTERM, then SIGKILL. */
    void stop() {
        process.stop(Duration.ofSeconds(5));
    }

    @Override
    public String toString() {
        return name + " (port " + port + ")";
    }

    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A free loopback port (below 55536 with its bus port, +10000, free too, when asked). */
    private static int freePort(boolean busPortToo) {
        if (!busPortToo) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                return socket.getLocalPort();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        java.util.Random random = new java.util.Random();
        for (int attempt = 0; attempt < 1000; attempt++) {
            int port = 20000 + random.nextInt(20000);
            if (free(port) && free(port + 10000)) {
                return port;
            }
        }
        throw new IllegalStateException("no free loopback port pair for a cluster node");
    }

    private static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException taken) {
            return false;
        }
    }
}
