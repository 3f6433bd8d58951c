package seckill.drill.ramp;

import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import seckill.redis.World;

/**
 * The service's own figures at one moment, read from each instance's {@code /metrics} (Prometheus
 * text, on the management port) or, without those, from the admin overview
 * ({@code GET /api/v1/admin/overview} through {@code --url}). Counters are summed over the instances;
 * the stream gauges describe the shared streams, which every instance reads alike, so their largest
 * reading counts. A figure no source gave is NaN. The figures are the activity's world's (docs/rehearsal.md): for a
 * real activity every sample but a rehearsal's, for a rehearsal's only the samples labelled {@code world="rehearsal"}
 * (the stream gauges count real streams only: a rehearsal's backlog is read from Redis, {@link RedisStats#backlog}).
 */
public final class ServiceFigures {

    /** One reading. */
    public record Reading(double backlog, double lag, double ordersCreated, double transactionSeconds,
                          double transactions) {

        static final Reading UNKNOWN = new Reading(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }

    private final List<URI> metrics;
    private final URI overview;
    private final String adminToken;
    private final World world;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    public ServiceFigures(List<URI> metrics, URI base, String adminToken, long activityId) {
        this.metrics = List.copyOf(metrics);
        this.overview = base.resolve("/api/v1/admin/overview?activity=" + activityId);
        this.adminToken = adminToken;
        this.world = World.of(activityId);
    }

    /** Where the figures come from, for the report. */
    public String source() {
        return metrics.isEmpty() ? "admin overview at " + overview : "metrics at " + metrics;
    }

    public Reading read() {
        return metrics.isEmpty() ? fromOverview() : fromMetrics();
    }

    private Reading fromMetrics() {
        double backlog = Double.NaN;
        double lag = Double.NaN;
        double orders = Double.NaN;
        double seconds = Double.NaN;
        double transactions = Double.NaN;
        for (URI uri : metrics) {
            Optional<String> text = get(HttpRequest.newBuilder(uri).header("Accept", "text/plain"));
            if (text.isEmpty()) {
                continue;
            }
            Map<String, Double> series = sums(text.get(), world);
            backlog = max(backlog, series.get("seckill_stream_pending"));
            lag = max(lag, series.get("seckill_stream_lag"));
            orders = plus(orders, series.get("seckill_orders_created_total"));
            seconds = plus(seconds, series.get("seckill_ordering_transaction_seconds_sum"));
            transactions = plus(transactions, series.get("seckill_ordering_transaction_seconds_count"));
        }
        return new Reading(backlog, lag, orders, seconds, transactions);
    }

    private Reading fromOverview() {
        Optional<String> body = get(HttpRequest.newBuilder(overview).header("Authorization", "Bearer " + adminToken));
        if (body.isEmpty() || world == World.REHEARSAL) {
            // the overview's stream figures are the real streams'
            return Reading.UNKNOWN;
        }
        try (JsonReader reader = Json.createReader(new StringReader(body.get()))) {
            JsonObject o = reader.readObject();
            // one instance's counters: the orders created there, not the deployment's
            return new Reading(o.getJsonNumber("streamPending").doubleValue(), o.getJsonNumber("streamLag").doubleValue(),
                    Double.NaN, Double.NaN, Double.NaN);
        } catch (RuntimeException unreadable) {
            return Reading.UNKNOWN;
        }
    }

    private Optional<String> get(HttpRequest.Builder request) {
        try {
            HttpResponse<String> answer = http.send(request.timeout(Duration.ofSeconds(5)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            return answer.statusCode() == 200 ? Optional.of(answer.body()) : Optional.empty();
        } catch (java.io.IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    private static final String REHEARSAL = "world=\"rehearsal\"";

    /** Prometheus text as the sum of each series name's samples (over its labels), a rehearsal's left out. */
    static Map<String, Double> sums(String text) {
        return sums(text, World.REAL);
    }

    /**
     * Prometheus text as the sum of each series name's samples of one world: the real one's (every sample but those
     * labelled {@code world="rehearsal"}), or a rehearsal's (only those).
     */
    static Map<String, Double> sums(String text, World world) {
        Map<String, Double> sums = new HashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int brace = line.indexOf('{');
            int space = brace >= 0 ? line.indexOf(' ', line.indexOf('}', brace)) : line.indexOf(' ');
            if (space < 0) {
                continue;
            }
            String name = line.substring(0, brace >= 0 ? brace : space);
            boolean rehearsals = brace >= 0 && line.substring(brace, space).contains(REHEARSAL);
            if (rehearsals != (world == World.REHEARSAL)) {
                continue;  // the other world's series (issue #34, docs/rehearsal.md): a ramp judges its own world only
            }
            String[] rest = line.substring(space + 1).trim().split(" ");
            try {
                sums.merge(name, Double.parseDouble(rest[0]), Double::sum);
            } catch (NumberFormatException notANumber) {
                // a value Prometheus allows that means nothing here (NaN, +Inf): left out
            }
        }
        return sums;
    }

    private static double max(double a, Double b) {
        return b == null ? a : Double.isNaN(a) ? b : Math.max(a, b);
    }

    private static double plus(double a, Double b) {
        return b == null ? a : Double.isNaN(a) ? b : a + b;
    }
}
