package seckill.app.http;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http1.Http1ConnectionListener;

/**
 * A request's headers must be complete within {@code seckill.http.header-timeout-millis} of its
 * request line, or the connection is closed. Helidon bounds none of this itself: its idle check
 * counts from the request line, and closes a connection stuck inside its headers only once a request
 * ends, which never comes; its per-read timeout is reset by every byte. So one header line every few
 * seconds held a connection, and a file, for ever (issue #36: 19,812 of them exhausted the process).
 * Listening to Helidon's HTTP/1 receive events (request line read, headers read) costs one map write
 * and one removal per request; one thread sweeps the pending ones a few times a second and closes
 * the sockets of those past their deadline, which ends their connection and frees its place.
 */
public final class HeaderDeadline implements Http1ConnectionListener {

    private static final Logger LOG = Logger.getLogger(HeaderDeadline.class.getName());
    private static final long SWEEP_MILLIS = 250;
    private static final long REPORT_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** Connections between their request line and the end of their headers, with their deadlines. */
    private static final Map<ConnectionContext, Long> PENDING = new ConcurrentHashMap<>();
    private static final AtomicLong CLOSED = new AtomicLong();
    private static final AtomicLong LAST_REPORT = new AtomicLong(System.nanoTime());
    private static final AtomicLong REPORTED = new AtomicLong();
    private static final ScheduledExecutorService SWEEPER = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "seckill-header-deadline");
        thread.setDaemon(true);
        return thread;
    });

    static {
        SWEEPER.scheduleWithFixedDelay(HeaderDeadline::sweep, SWEEP_MILLIS, SWEEP_MILLIS, TimeUnit.MILLISECONDS);
    }

    private final long timeoutNanos;

    public HeaderDeadline(Duration timeout) {
        this.timeoutNanos = timeout.toNanos();
    }

    @Override
    public void prologue(ConnectionContext ctx, HttpPrologue prologue) {
        PENDING.put(ctx, System.nanoTime() + timeoutNanos);
    }

    @Override
    public void headers(ConnectionContext ctx, Headers headers) {
        PENDING.remove(ctx);
    }

    /** How many connections were closed for their headers since the start. */
    public static long closed() {
        return CLOSED.get();
    }

    private static void sweep() {
        long now = System.nanoTime();
        PENDING.forEach((ctx, deadline) -> {
            if (now - deadline > 0 && PENDING.remove(ctx, deadline)) {
                try {
                    // the connection's reader fails on the closed socket; Helidon then ends the
                    // connection and gives back its place under server.max-tcp-connections
                    ctx.serverSocket().close();
                } catch (RuntimeException alreadyGone) {
                    // closed by the client meanwhile: nothing is left to free
                }
                CLOSED.incrementAndGet();
            }
        });
        long last = LAST_REPORT.get();
        if (now - last > REPORT_NANOS && LAST_REPORT.compareAndSet(last, now)) {
            long total = CLOSED.get();
            long before = REPORTED.getAndSet(total);
            // one line per ten seconds at most, whatever a flood does: the log must not be its amplifier
            if (total > before) {
                LOG.info("closed " + (total - before) + " connection(s) that did not finish their request headers within "
                        + "seckill.http.header-timeout-millis (" + total + " since the start)");
            }
        }
    }
}
