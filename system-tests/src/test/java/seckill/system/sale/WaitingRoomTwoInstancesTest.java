package seckill.system.sale;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import seckill.dev.api.DevServers;
import seckill.system.SaleFixture;
import seckill.system.SecondInstance;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

/**
 * Two service instances share one waiting line (issue #33): this test's in-process service and a second one in
 * its own JVM, both moving the line. Buyers joining on either get one sequence of places, joining again on the
 * other instance keeps the place, the two together never call more than the rate, and a pass one instance
 * hands out buys on the other.
 */
@AddConfig(key = "seckill.queue.enabled", value = "true")
@AddConfig(key = "seckill.queue.rate", value = "4")
@AddConfig(key = "seckill.queue.tick-millis", value = "50")
@AddConfig(key = "seckill.queue.pass-keys", value = WaitingRoomTwoInstancesTest.PASS_KEYS)
class WaitingRoomTwoInstancesTest extends ServiceTest {

    static final String PASS_KEYS = "two=waiting-room-two-instances-pass-key-32";
    private static final long SKU = 3401;
    private static final int RATE = 4;

    @Inject
    DevServers devServers;

    private SecondInstance second;

    @AfterEach
    void stopSecond() throws Exception {
        if (second != null) {
            second.close();
        }
    }

    @Test
    void twoInstancesShareOneLineAndTogetherCallNoMoreThanTheRate() throws Exception {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        second = SecondInstance.start(SecondInstance.storesOf(config, devServers), db,
                "seckill.admission.token-required=false", "seckill.queue.enabled=true", "seckill.queue.rate=" + RATE,
                "seckill.queue.tick-millis=50", "seckill.queue.pass-keys=" + PASS_KEYS);
        URI[] instances = {target.getUri(), second.base()};
        long activity = sale.createOpenActivity(SKU, 100, 1);
        long firstBuyer = activity * 1_000_000;
        List<Long> places = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            HttpResponse<String> joined = join(sale, instances[i % 2], activity, firstBuyer + i);
            assertThat(joined.body(), joined.statusCode(), is(200));
            places.add(SaleFixture.number(joined.body(), "place"));
        }
        // one sequence of places over both instances, in join order (places are ordering keys numbered
        // from the clock, not counts: increasing, not consecutive)
        for (int i = 1; i < places.size(); i++) {
            assertThat(places.get(i), greaterThan(places.get(i - 1)));
        }
        assertThat(SaleFixture.number(join(sale, instances[1], activity, firstBuyer).body(), "place"), is(places.getFirst()));

        // the promise as the line keeps it: at most the rate called in each second, by both instances
        // together, read from the line's own per-second counts in Redis (sk:{q:a<id>}:s<epochSecond>, kept 5 s);
        // a window of one second that straddles two seconds may hold more (a second whose ticks fell behind
        // catches up before it ends: docs/queue.md)
        java.util.Map<Long, Long> perSecond = new java.util.TreeMap<>();
        List<long[]> samples = new ArrayList<>();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < until) {
            long now = System.currentTimeMillis() / 1000;
            for (long second = now - 3; second <= now + 1; second++) {
                String count = redis.get("sk:{q:a" + activity + "}:s" + second);
                if (count != null) {
                    perSecond.merge(second, Long.parseLong(count), Math::max);
                }
            }
            long called = SaleFixture.number(place(sale, instances[0], activity, firstBuyer + 23).body(), "called");
            samples.add(new long[] {System.nanoTime(), called});
            Thread.sleep(50);
        }
        assertThat(perSecond.toString(), perSecond.size(), greaterThan(2));
        for (var second : perSecond.entrySet()) {
            assertThat(perSecond.toString(), second.getValue(), lessThanOrEqualTo((long) RATE));
        }
        assertThat(samples.getLast()[1], greaterThan(samples.getFirst()[1]));

        // a pass handed out by the line buys on either instance
        String body = place(sale, instances[0], activity, firstBuyer).body();
        assertThat(body, SaleFixture.field(body, "state"), is("YOUR_TURN"));
        HttpResponse<String> bought = sale.send(SaleFixture.asBuyer(HttpRequest.newBuilder(
                        instances[1].resolve("/api/v1/activities/" + activity + "/purchases"))
                .header("Content-Type", "application/json").header("X-Queue-Pass", SaleFixture.field(body, "pass"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"skuId\":" + SKU + ",\"quantity\":1,\"requestId\":\"two\"}")),
                firstBuyer));
        assertThat(bought.body(), bought.statusCode(), is(202));
        assertThat(SaleFixture.field(place(sale, instances[0], activity, firstBuyer).body(), "state"), is("USED"));
    }

    private static HttpResponse<String> join(SaleFixture sale, URI instance, long activity, long buyer) {
        return sale.send(SaleFixture.asBuyer(HttpRequest.newBuilder(instance.resolve(
                "/api/v1/activities/" + activity + "/queue")).POST(HttpRequest.BodyPublishers.noBody()), buyer));
    }

    private static HttpResponse<String> place(SaleFixture sale, URI instance, long activity, long buyer) {
        return sale.send(SaleFixture.asBuyer(HttpRequest.newBuilder(instance.resolve(
                "/api/v1/activities/" + activity + "/queue")).GET(), buyer));
    }
}
