package seckill.app.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One service instance of a chaos run: its own JVM ({@code java -cp <this JVM's class path>
 * seckill.app.SeckillMain}) on a fixed loopback port, its stores given by environment. Faults act
 * on its process by PID only: {@link #kill()} is SIGKILL, {@link #freeze()} SIGSTOP, {@link #thaw()}
 * SIGCONT; {@link #start()} starts it again on the same port, appending to the same log.
 */
final class ServiceProcess {

    private final int index;
    private final int port;
    private final Map<String, String> environment;
    private final List<String> properties;
    private final Path log;
    private final SignalledProcess process;

    ServiceProcess(int index, Map<String, String> environment, List<String> properties, Path log) {
        this.index = index;
        this.environment = environment;
        this.properties = properties;
        this.log = log;
        this.process = new SignalledProcess("instance " + index);
        try (ServerSocket socket = new ServerSocket(0)) {
            this.port = socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    int index() {
        return index;
    }

    int port() {
        return port;
    }

    void start() {
        if (process.alive()) {
            return;
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx256m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                "-Dserver.port=" + port, "-Dserver.host=127.0.0.1"));
        properties.forEach(p -> command.add("-D" + p));
        command.add("seckill.app.SeckillMain");
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        process.start(builder);
    }

    /** SIGKILL: nothing in flight is finished or handed back. */
    void kill() {
        process.kill();
    }

    /** SIGSTOP: the process holds its sockets and locks but does nothing, as in a long GC pause. */
    void freeze() {
        process.freeze();
    }

    /** SIGCONT, if this process was frozen (a process started since is not signalled). */
    void thaw() {
        process.thaw();
    }

    boolean alive() {
        return process.alive();
    }

    /** Stops it for good at the end of the run: continued first if frozen, then SIGTERM, then SIGKILL. */
    void stop() {
        process.stop(Duration.ofSeconds(10));
    }
}
