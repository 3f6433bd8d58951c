package seckill.drill.chaos;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import seckill.chaos.api.HistoryEntry;
import seckill.chaos.api.HistoryWriter;
import seckill.chaos.api.OpKind;

/**
 * Sends one request to one instance and writes what happened to the history: send and answer time
 * (monotonic nanos and wall clock), status, body and Retry-After, or the exception when no answer
 * came (timeout, connection refused, reset).
 */
final class RecordingClient {

    private final HttpClient http;
    private final HistoryWriter history;
    private final Clock clock;
    private final LongSupplier nanos;
    private final List<Integer> ports;
    private final Duration timeout;
    private final AtomicLong seq = new AtomicLong();

    RecordingClient(HistoryWriter history, Clock clock, LongSupplier nanos, List<Integer> ports, Duration timeout) {
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        this.history = history;
        this.clock = clock;
        this.nanos = nanos;
        this.ports = ports;
        this.timeout = timeout;
    }

    /** What the caller needs of the answer; the history has the rest. */
    record Answer(int status, String body, String retryAfter) {

        /** No answer, or a 5xx: the outcome is unknown or the service asks to come back. */
        boolean lostOr5xx() {
            return status == 0 || status >= 500;
        }
    }

    URI uri(int instance, String path) {
        return URI.create("http://127.0.0.1:" + ports.get(instance) + path);
    }

    Answer send(int step, OpKind kind, int instance, Long buyer, Long activity, Long sku, String requestId,
                HttpRequest.Builder request) {
        return send(step, kind, instance, buyer, activity, sku, requestId, request, null, null);
    }

    /**
     * Sends {@code request} and writes it with {@code sent} (what the checker needs of what was sent) and
     * {@code forged} (null, or how the request was forged on purpose).
     */
    Answer send(int step, OpKind kind, int instance, Long buyer, Long activity, Long sku, String requestId,
                HttpRequest.Builder request, String sent, String forged) {
        long sentNanos = nanos.getAsLong();
        String sentWall = clock.instant().toString();
        int status = 0;
        String body = null;
        String retryAfter = null;
        String error = null;
        try {
            HttpResponse<String> response = http.send(request.timeout(timeout).build(),
                    HttpResponse.BodyHandlers.ofString());
            status = response.statusCode();
            body = response.body();
            retryAfter = response.headers().firstValue("Retry-After").orElse(null);
        } catch (HttpTimeoutException e) {
            error = "timeout: " + e.getMessage();
        } catch (ConnectException e) {
            error = "connection refused: " + e.getMessage();
        } catch (IOException e) {
            error = e.getClass().getSimpleName() + ": " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            error = "interrupted";
        }
        history.write(new HistoryEntry.Operation(seq.incrementAndGet(), step, kind, instance, buyer, activity, sku,
                requestId, sentNanos, sentWall, nanos.getAsLong(), clock.instant().toString(), status, body, retryAfter,
                error, sent, forged));
        return new Answer(status, body, retryAfter);
    }

    /**
     * An operator's action that is no request (a hot switch written to an instance's config directory):
     * written like one, answered 200 with what was done, or 0 with the error.
     */
    void record(int step, OpKind kind, int instance, Runnable action, String done) {
        long sent = nanos.getAsLong();
        String sentWall = clock.instant().toString();
        int status = 200;
        String error = null;
        try {
            action.run();
        } catch (RuntimeException e) {
            status = 0;
            error = e.toString();
        }
        history.write(new HistoryEntry.Operation(seq.incrementAndGet(), step, kind, instance, null, null, null, null,
                sent, sentWall, nanos.getAsLong(), clock.instant().toString(), status, status == 200 ? done : null,
                null, error));
    }
}
