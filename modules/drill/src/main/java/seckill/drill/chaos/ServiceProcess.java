package seckill.drill.chaos;

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
    private final Path clockFile;

    ServiceProcess(int index, Map<String, String> environment, List<String> properties, Path log) {
        this(index, environment, properties, log, null);
    }

    /**
     * With {@code clockFile}, the instance runs under Debian's {@code faketime} (libfaketime preloaded): its
     * wall clock is real time plus the offset that file holds ({@code +0} until {@link #moveClock}), read
     * again at most once a second; monotonic time ({@code System.nanoTime}, the JVM's timers) stays real.
     */
    ServiceProcess(int index, Map<String, String> environment, List<String> properties, Path log, Path clockFile) {
        this.index = index;
        this.clockFile = clockFile;
        this.environment = environment;
        this.properties = properties;
        this.log = log;
        this.process = new SignalledProcess("instance " + index);
        try (ServerSocket socket = new ServerSocket(0)) {
            this.port = socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (clockFile != null) {
            faketimeLibrary();
            writeClock("+0");
        }
    }

    /** Where Debian's {@code faketime} package puts the preloaded library; a run that moves clocks needs it. */
    static Path faketimeLibrary() {
        for (String dir : List.of("/usr/lib/x86_64-linux-gnu/faketime", "/usr/lib/aarch64-linux-gnu/faketime",
                "/usr/lib/faketime", "/usr/local/lib/faketime")) {
            Path lib = Path.of(dir, "libfaketime.so.1");
            if (java.nio.file.Files.isReadable(lib)) {
                return lib;
            }
        }
        throw new IllegalStateException("a CLOCK_MOVE needs Debian's faketime package (apt-get install faketime):"
                + " no libfaketime.so.1 found");
    }

    /**
     * Moves this instance's wall clock by {@code offset} ({@code +120}, {@code -45}: seconds from real time),
     * without a restart: libfaketime reads its timestamp file again within a second. {@code +0} puts it back.
     */
    void moveClock(String offset) {
        if (clockFile == null) {
            throw new IllegalStateException("instance " + index + " does not run under faketime");
        }
        writeClock(offset);
    }

    /** Puts the wall clock back to real time (a no-op for an instance not under faketime). */
    void restoreClock() {
        if (clockFile != null) {
            writeClock("+0");
        }
    }

    private synchronized void writeClock(String offset) {
        try {
            // whole, then moved into place: libfaketime never reads half a line
            Path temp = java.nio.file.Files.writeString(clockFile.resolveSibling(clockFile.getFileName() + ".tmp"),
                    offset + "\n");
            java.nio.file.Files.move(temp, clockFile, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
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
        // small and C1 only: a drill runs several instances side by side and restarts them, each living
        // minutes; C2's compilations of the start path were about a third of a start's CPU (docs/tests.md)
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), "-Dserver.port=" + port, "-Dserver.host=127.0.0.1"));
        properties.forEach(p -> command.add("-D" + p));
        command.add("seckill.app.SeckillMain");
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        if (clockFile != null) {
            builder.environment().put("LD_PRELOAD", faketimeLibrary().toString());
            builder.environment().put("FAKETIME_TIMESTAMP_FILE", clockFile.toString());
            // read the file again at most once a second (FAKETIME_NO_CACHE=1 costs ~25 us per clock read here)
            builder.environment().put("FAKETIME_CACHE_DURATION", "1");
            // monotonic time stays real: the JVM's timers, sleeps and System.nanoTime keep working
            builder.environment().put("FAKETIME_DONT_FAKE_MONOTONIC", "1");
            builder.environment().put("FAKETIME_FORCE_MONOTONIC_FIX", "0");
            // files' times stay true (switches.yaml is written by the runner on the real clock)
            builder.environment().put("NO_FAKE_STAT", "1");
        }
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
