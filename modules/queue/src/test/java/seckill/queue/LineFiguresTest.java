package seckill.queue;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;

import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.junit.jupiter.api.Test;

/**
 * The waiting line's series carry the {@code world} label (issue #34, docs/rehearsal.md step 5): a rehearsal's
 * line moves only {@code world="rehearsal"} series, which the alert rules leave out, and the real series are
 * registered from the start as before. Pure logic: the registry is a recording stand-in.
 */
class LineFiguresTest {

    private static final long REAL = 42;
    private static final long REHEARSAL = 1_000_000_000_000_007L;

    /** Counters and gauges by "name{world}". */
    private final Map<String, AtomicLong> counters = new ConcurrentHashMap<>();
    private final Map<String, Supplier<?>> gauges = new ConcurrentHashMap<>();

    @Test
    void aRehearsalsLineMovesOnlyTheRehearsalSeries() {
        LineFigures figures = new LineFigures(recordingRegistry(), new QueueSwitches());
        assertThat("the real series exist before any line", counters.get("seckill.queue.called{real}").get(), is(0L));
        assertThat("no rehearsal series before a rehearsal's line", counters.get("seckill.queue.called{rehearsal}"),
                nullValue());

        figures.ticked(REAL, 1_000, 3, 1, 10, 2, 3, false);
        figures.ticked(REHEARSAL, 1_000, 5, 2, 20, 4, 5, false);
        figures.placesRead(REAL);
        figures.placesRead(REHEARSAL);
        figures.placesRead(REHEARSAL);
        figures.passUsed(REHEARSAL);

        assertThat(counters.get("seckill.queue.called{real}").get(), is(3L));
        assertThat(counters.get("seckill.queue.passes.expired{real}").get(), is(1L));
        assertThat(counters.get("seckill.queue.place.reads{real}").get(), is(1L));
        assertThat(counters.get("seckill.queue.passes.used{real}").get(), is(0L));
        assertThat(counters.get("seckill.queue.called{rehearsal}").get(), is(5L));
        assertThat(counters.get("seckill.queue.passes.expired{rehearsal}").get(), is(2L));
        assertThat(counters.get("seckill.queue.place.reads{rehearsal}").get(), is(2L));
        assertThat(counters.get("seckill.queue.passes.used{rehearsal}").get(), is(1L));
        assertThat(((Number) gauges.get("seckill.queue.waiting{real}").get()).longValue(), is(10L));
        assertThat(((Number) gauges.get("seckill.queue.waiting{rehearsal}").get()).longValue(), is(20L));
        assertThat(((Number) gauges.get("seckill.queue.passes.out{real}").get()).longValue(), is(2L));
        assertThat(((Number) gauges.get("seckill.queue.passes.out{rehearsal}").get()).longValue(), is(4L));
    }

    private MetricRegistry recordingRegistry() {
        return (MetricRegistry) Proxy.newProxyInstance(MetricRegistry.class.getClassLoader(),
                new Class<?>[] {MetricRegistry.class}, (proxy, method, args) -> {
                    String name = ((Metadata) args[0]).getName();
                    switch (method.getName()) {
                        case "counter" -> {
                            AtomicLong count = counters.computeIfAbsent(key(name, (Tag[]) args[1]),
                                    k -> new AtomicLong());
                            return counter(count);
                        }
                        case "gauge" -> {
                            gauges.put(key(name, (Tag[]) args[2]), (Supplier<?>) args[1]);
                            return null;
                        }
                        default -> throw new UnsupportedOperationException(method.getName());
                    }
                });
    }

    private static String key(String name, Tag[] tags) {
        Map<String, String> byName = new TreeMap<>();
        Arrays.stream(tags).forEach(t -> byName.put(t.getTagName(), t.getTagValue()));
        return name + "{" + String.join(",", byName.values()) + "}";
    }

    private static Counter counter(AtomicLong count) {
        return new Counter() {
            @Override
            public void inc() {
                count.incrementAndGet();
            }

            @Override
            public void inc(long n) {
                count.addAndGet(n);
            }

            @Override
            public long getCount() {
                return count.get();
            }
        };
    }
}
