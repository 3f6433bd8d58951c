package seckill.drill.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import redis.clients.jedis.Jedis;

/**
 * The Redis a chaos run owns: the machine's {@code redis-server} on a free loopback port, nothing
 * kept on disk, stopped by its PID. A run pauses its Redis ({@code CLIENT PAUSE}); a shared server
 * would pause everyone else's work with it.
 */
final class OwnRedis implements AutoCloseable {

    private final Process process;
    private final int port;

    private OwnRedis(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    static OwnRedis start(Path log) {
        String binary = List.of("/usr/bin/redis-server", "/usr/local/bin/redis-server").stream()
                .filter(p -> Files.isExecutable(Path.of(p))).findFirst()
                .orElseThrow(() -> new IllegalStateException("the chaos drill needs redis-server (apt-get install"
                        + " redis-server): it starts a Redis of its own, because it pauses it"));
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Process process;
        try {
            process = new ProcessBuilder(binary, "--port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "no", "--daemonize", "no")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start redis-server", e);
        }
        OwnRedis redis = new OwnRedis(process, port);
        Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
        while (true) {
            try (Jedis jedis = new Jedis("127.0.0.1", port)) {
                if ("PONG".equals(jedis.ping())) {
                    return redis;
                }
            } catch (RuntimeException e) {
                if (Instant.now().isAfter(deadline) || !process.isAlive()) {
                    redis.close();
                    throw new IllegalStateException("redis-server did not start on port " + port, e);
                }
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    int port() {
        return port;
    }

    String uri() {
        return "redis://127.0.0.1:" + port;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
