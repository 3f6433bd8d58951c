package seckill.drill.api;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/** Counts and latency histograms per request outcome (HTTP status, or "error" for no answer). */
final class OutcomeTally {

    private static final long MAX_MICROS = 60_000_000L;

    private final Map<String, Histogram> byOutcome = new ConcurrentHashMap<>();
    private final Histogram all = new ConcurrentHistogram(MAX_MICROS, 3);
    private final LongAdder requests = new LongAdder();

    void record(String outcome, long micros) {
        long clamped = Math.min(Math.max(1, micros), MAX_MICROS);
        byOutcome.computeIfAbsent(outcome, o -> new ConcurrentHistogram(MAX_MICROS, 3)).recordValue(clamped);
        all.recordValue(clamped);
        requests.increment();
    }

    long requests() {
        return requests.sum();
    }

    long count(String outcome) {
        Histogram h = byOutcome.get(outcome);
        return h == null ? 0 : h.getTotalCount();
    }

    Map<String, Long> counts() {
        Map<String, Long> counts = new TreeMap<>();
        byOutcome.forEach((k, v) -> counts.put(k, v.getTotalCount()));
        return counts;
    }

    Histogram overall() {
        return all;
    }

    Map<String, Histogram> perOutcome() {
        return new TreeMap<>(byOutcome);
    }
}
