package seckill.system;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The samples of an instance's {@code /metrics} (Prometheus text) whose family starts with {@code seckill_}, by
 * their whole series ({@code name{labels}}), for tests that compare figures before and after (issue #34: the
 * {@code world} label, docs/rehearsal.md).
 */
public final class MetricSamples {

    private final Map<String, Double> samples;

    private MetricSamples(Map<String, Double> samples) {
        this.samples = samples;
    }

    /** The instance's samples now. */
    public static MetricSamples of(SaleFixture sale) {
        HttpResponse<String> metrics = sale.send(HttpRequest.newBuilder(sale.base.resolve("/metrics"))
                .header("Accept", "text/plain").GET());
        if (metrics.statusCode() != 200) {
            throw new AssertionError("/metrics answered " + metrics.statusCode() + ": " + metrics.body());
        }
        return parse(metrics.body());
    }

    /** The {@code seckill_} samples of a Prometheus text. */
    public static MetricSamples parse(String exposition) {
        Map<String, Double> samples = new TreeMap<>();
        exposition.lines().filter(l -> l.startsWith("seckill_")).forEach(line -> {
            int space = line.lastIndexOf(' ');
            samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
        });
        return new MetricSamples(samples);
    }

    /** The samples whose series (name and labels) {@code series} accepts. */
    public Map<String, Double> where(Predicate<String> series) {
        Map<String, Double> chosen = new TreeMap<>();
        samples.forEach((name, value) -> {
            if (series.test(name)) {
                chosen.put(name, value);
            }
        });
        return chosen;
    }

    /** The sum of the samples of {@code family} (its exact sample name) whose labels contain every one of {@code labels}. */
    public double sum(String family, String... labels) {
        return where(s -> s.startsWith(family + "{") && java.util.Arrays.stream(labels).allMatch(s::contains))
                .values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** Whether a sample's series is labelled {@code world="<world>"}. */
    public static Predicate<String> inWorld(String world) {
        return series -> series.contains("world=\"" + world + "\"");
    }
}
