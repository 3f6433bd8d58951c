package seckill.system.sale;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.helidon.microprofile.testing.junit5.AddConfig;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.junit.jupiter.api.Test;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.notNullValue;

/**
 * Many event streams on one instance with a small Redis pool (issue #33): the streams' places are read by one
 * reader per line, so the Redis calls they make do not grow with their number. 200 buyers each follow their place
 * (polled every 50 ms) on a service whose pool holds 2 connections: over 2 s while they wait the service reads
 * places fewer than 200 times ({@code seckill_queue_place_reads_total}; each stream used to read its own every
 * period: thousands), 100 joins meanwhile are all answered (none {@code 503 QUEUE_UNAVAILABLE}), and after the
 * start every stream pushes its buyer's turn, which the line's passes in Redis hold.
 */
@AddConfig(key = "seckill.queue.enabled", value = "true")
@AddConfig(key = "seckill.queue.rate", value = "100")
@AddConfig(key = "seckill.queue.tick-millis", value = "50")
@AddConfig(key = "seckill.queue.pass-seconds", value = "60")
@AddConfig(key = "seckill.queue.events-poll-millis", value = "50")
@AddConfig(key = "seckill.redis.pool-size", value = "2")
class WaitingRoomManyStreamsTest extends ServiceTest {

    @jakarta.inject.Inject
    MetricRegistry metrics;

    private static final long SKU = 3401;
    private static final int STREAMS = 200;
    private static final AtomicLong BUYERS = new AtomicLong(System.currentTimeMillis() % 100_000_000 * 1000 + 500);

    @Test
    void twoHundredStreamsTakeNoConnectionEachAndStarveNoJoin() throws Exception {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        Instant start = Instant.now().plusSeconds(15);
        long activity = sale.createActivity(start, start.plusSeconds(600), SKU, 2 * STREAMS, 1);

        List<Stream> streams = new ArrayList<>();
        List<CompletableFuture<HttpResponse<Void>>> open = new ArrayList<>();
        for (int i = 0; i < STREAMS; i++) {
            long buyer = BUYERS.incrementAndGet();
            HttpResponse<String> joined = join(sale, activity, buyer);
            assertThat(joined.body(), joined.statusCode(), is(200));
            Stream stream = new Stream(buyer);
            streams.add(stream);
            open.add(stream.open(sale, activity));
        }
        try {
            SaleFixture.await("every stream told its place", Duration.ofSeconds(30),
                    () -> streams.stream().allMatch(s -> s.places.get() > 0));
            long before = placeReads();
            Thread.sleep(2000);
            long reads = placeReads() - before;
            assertThat("places read in 2 s with " + STREAMS + " streams open", reads, lessThan((long) STREAMS));

            // joins while the streams wait: none is refused for want of a pooled connection
            Map<Integer, Integer> answers = new HashMap<>();
            for (int i = 0; i < 100; i++) {
                answers.merge(join(sale, activity, BUYERS.incrementAndGet()).statusCode(), 1, Integer::sum);
            }
            assertThat("joins answered while the streams wait", answers, is(Map.of(200, 100)));

            // after the start the line calls everyone (100 a second, units for all): each stream pushes the turn
            SaleFixture.await("every stream pushed its buyer's turn", Duration.ofSeconds(60),
                    () -> streams.stream().allMatch(s -> s.pass != null));
            String passes = "sk:{q:a" + activity + "}:passes";
            for (Stream stream : streams) {
                assertThat("buyer " + stream.buyer + " holds a pass in Redis", redis.zscore(passes,
                        Long.toString(stream.buyer)), notNullValue());
            }
        } finally {
            open.forEach(stream -> stream.cancel(true));
        }
    }

    private long placeReads() {
        return metrics.counter("seckill.queue.place.reads",
                new org.eclipse.microprofile.metrics.Tag("world", "real")).getCount();
    }

    private static HttpResponse<String> join(SaleFixture sale, long activity, long buyer) {
        return sale.send(SaleFixture.asBuyer(HttpRequest.newBuilder(sale.base.resolve(
                "/api/v1/activities/" + activity + "/queue")).POST(HttpRequest.BodyPublishers.noBody()), buyer));
    }

    /** One buyer's event stream: counts the place events and keeps the pass of a pushed turn. */
    private static final class Stream {
        final long buyer;
        final AtomicLong places = new AtomicLong();
        volatile String pass;
        private final Map<String, String> event = new HashMap<>();

        Stream(long buyer) {
            this.buyer = buyer;
        }

        CompletableFuture<HttpResponse<Void>> open(SaleFixture sale, long activity) {
            HttpRequest.Builder request = HttpRequest.newBuilder(sale.base.resolve(
                    "/api/v1/activities/" + activity + "/queue/events")).header("Accept", "text/event-stream").GET();
            return sale.http.sendAsync(SaleFixture.asBuyer(request, buyer).timeout(Duration.ofSeconds(120)).build(),
                    HttpResponse.BodyHandlers.fromLineSubscriber(new Flow.Subscriber<String>() {
                        @Override
                        public void onSubscribe(Flow.Subscription subscription) {
                            subscription.request(Long.MAX_VALUE);
                        }

                        @Override
                        public void onNext(String line) {
                            received(line);
                        }

                        @Override
                        public void onError(Throwable throwable) {
                        }

                        @Override
                        public void onComplete() {
                        }
                    }));
        }

        private synchronized void received(String line) {
            if (line.isEmpty()) {
                String data = event.get("data");
                if ("place".equals(event.get("event")) && data != null) {
                    places.incrementAndGet();
                    if ("YOUR_TURN".equals(SaleFixture.field(data, "state"))) {
                        pass = SaleFixture.field(data, "pass");
                    }
                }
                event.clear();
                return;
            }
            int colon = line.indexOf(':');
            if (colon > 0) {
                event.put(line.substring(0, colon), line.substring(colon + 1).stripLeading());
            }
        }
    }
}
