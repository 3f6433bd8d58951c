package seckill.drill.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A process the chaos run started and acts on by its PID only (never by name): {@link #kill()} is
 * SIGKILL, {@link #freeze()} SIGSTOP, {@link #thaw()} SIGCONT of that same process, {@link #stop}
 * continues it if frozen, then SIGTERM, then SIGKILL. Started again with {@link #start}, a new
 * process replaces the old one and is never signalled for the old one's freeze. Shared by the
 * service instances and the Redis nodes of a run.
 */
final class SignalledProcess {

    private final String name;
    private Process process;
    private boolean frozen;

    SignalledProcess(String name) {
        this.name = name;
    }

    /** Starts it unless it runs already. */
    synchronized void start(ProcessBuilder builder) {
        if (alive()) {
            return;
        }
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name, e);
        }
        frozen = false;
    }

    /** SIGKILL, waiting until it is gone: nothing in flight is finished or handed over. */
    synchronized void kill() {
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        frozen = false;
    }

    /** SIGSTOP: it holds its sockets and locks but does nothing, as in a long GC pause. */
    synchronized void freeze() {
        if (alive()) {
            signal("-STOP");
            frozen = true;
        }
    }

    /** SIGCONT, if this process was frozen. */
    synchronized void thaw() {
        if (frozen && alive()) {
            signal("-CONT");
        }
        frozen = false;
    }

    synchronized boolean alive() {
        return process != null && process.isAlive();
    }

    synchronized boolean frozen() {
        return frozen;
    }

    /** Stops it for good: continued first if frozen, then SIGTERM, then SIGKILL after {@code grace}. */
    synchronized void stop(Duration grace) {
        thaw();
        if (process != null) {
            process.destroy();
            try {
                if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly().waitFor();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void signal(String signal) {
        try {
            new ProcessBuilder("kill", signal, Long.toString(process.pid())).inheritIO().start().waitFor();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
