package seckill.system.faults;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import seckill.drill.api.InvariantCheck;
import seckill.ledger.api.OrderingSwitch;
import seckill.settlement.api.Reconciliation;
import seckill.settlement.api.SkuReconciliation;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

/**
 * The registry of bucket streams ({@code sk:streams}, which the ordering workers and the lag metric
 * read) is deleted from outside in the middle of a sale, twice: every reservation answered 202 still
 * becomes an order, the lag metric counts the events meanwhile instead of reading 0, reconciliation
 * does not call the SKU CLEAN while a bucket was missing (it registers it again), and a member whose
 * activity's keys expired is pruned.
 */
// the test calls reconciliation itself, at the moment the registry has lost the buckets
@AddConfig(key = "seckill.settlement.reconcile-seconds", value = "3600")
class StreamRegistryTest extends ServiceTest {

    private static final String REGISTRY = "sk:streams";
    private static final long SKU = 9201;
    private static final int BUCKETS = 2;
    private static final long STOCK = 120;

    @Inject
    OrderingSwitch ordering;

    @Inject
    Reconciliation reconciliation;

    @Test
    void aBucketLostFromTheRegistryIsStillOrderedAndNothingHidesIt() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createBucketedActivity(SKU, STOCK, BUCKETS);
        List<String> streams = new ArrayList<>();
        for (int b = 0; b < BUCKETS; b++) {
            streams.add(InvariantCheck.bucketKey(activity, SKU, b, BUCKETS, "events"));
            assertThat(redis.zscore(REGISTRY, streams.get(b)), notNullValue());
        }
        Map<String, Long> buyerOf = new ConcurrentHashMap<>();
        buy(sale, activity, 0, 40, buyerOf);
        SaleFixture.await("the first orders", Duration.ofSeconds(30), () -> sale.orders(activity) == 40);

        // the workers stand still so the events wait where the lag metric must see them
        ordering.pause();
        long lag;
        try {
            redis.del(REGISTRY);
            buy(sale, activity, 40, 100, buyerOf);
            // the streams the ledger says must exist are read again every streams-repair-seconds (5)
            lag = lagOnceAtLeast(sale, 60);
        } finally {
            ordering.resume();
        }
        long ordered = waitForOrders(sale, activity, 100);
        System.out.println("registry deleted mid-sale: lag metric " + lag + " with 60 events waiting; "
                + ordered + " of 100 reservations ordered");

        // again, and this time reconciliation meets the registry without the buckets first
        ordering.pause();
        SkuReconciliation judged;
        try {
            redis.del(REGISTRY);
            // an ended activity's stream: its keys have expired, so the registry drops it
            redis.zadd(REGISTRY, 1, "sk:{a0:s0:b0}:events");
            buy(sale, activity, 100, 120, buyerOf);
            judged = reconciliation.reconcile(activity).getFirst();
        } finally {
            ordering.resume();
        }
        System.out.println("reconciliation with the registry deleted: " + judged.state() + " " + judged.detail());
        assertThat("every 202 an order although the registry lost its buckets", ordered, is(100L));
        assertThat("the lag metric counts the events of the unregistered buckets", lag, greaterThanOrEqualTo(60L));
        assertThat("not CLEAN while a bucket's events were read by nobody", judged.state(), not(is("CLEAN")));
        assertThat(judged.detail(), containsString("registry"));
        for (String stream : streams) {
            assertThat("registered again: " + stream, redis.zscore(REGISTRY, stream), notNullValue());
        }
        assertThat("the expired member pruned", redis.zscore(REGISTRY, "sk:{a0:s0:b0}:events"), nullValue());

        assertThat(waitForOrders(sale, activity, STOCK), is(STOCK));
        assertThat(Set.copyOf(sale.column("SELECT reservation_id FROM seckill_order WHERE activity_id = ?", activity)),
                is(buyerOf.keySet()));
        assertThat(sale.count("SELECT COUNT(*) FROM seckill_reservation_failure WHERE activity_id = ?", activity), is(0L));
        assertThat(sale.available(activity, SKU), is(0L));
        SaleFixture.await("reconciled clean once everything is ordered", Duration.ofSeconds(20),
                () -> reconciliation.reconcile(activity).getFirst().clean());
    }

    private static void buy(SaleFixture sale, long activity, int from, int to, Map<String, Long> buyerOf) {
        for (int i = from; i < to; i++) {
            long user = activity * 10_000 + i;
            HttpResponse<String> response = sale.purchase(activity, user, SKU, 1, "registry-" + user);
            assertThat(response.body(), response.statusCode(), is(202));
            buyerOf.put(SaleFixture.field(response.body(), "reservationId"), user);
        }
    }

    /** Orders of the activity once {@code expected} are there, or after 30 s, whichever is first. */
    private static long waitForOrders(SaleFixture sale, long activity, long expected) {
        try {
            SaleFixture.await("orders", Duration.ofSeconds(30), () -> sale.orders(activity) >= expected);
        } catch (org.awaitility.core.ConditionTimeoutException shortOfOrders) {
            // reported by the caller's assertion, with the count
        }
        return sale.orders(activity);
    }

    /**
     * The highest the lag metric read until it read at least {@code expected}, or within 15 s. The
     * highest, not a last read: a worker already inside its blocking read when the test paused the
     * workers may still take the waiting events, and then the metric rightly falls again (CI saw 60,
     * then 0).
     */
    private static long lagOnceAtLeast(SaleFixture sale, long expected) {
        java.util.concurrent.atomic.AtomicLong highest = new java.util.concurrent.atomic.AtomicLong(-1);
        try {
            SaleFixture.await("the lag metric", Duration.ofSeconds(15),
                    () -> highest.accumulateAndGet(lag(sale), Math::max) >= expected);
        } catch (org.awaitility.core.ConditionTimeoutException hidden) {
            // reported by the caller's assertion, with the value
        }
        return highest.get();
    }

    private static long lag(SaleFixture sale) {
        for (String line : sale.get("/metrics", null).body().split("\n")) {
            if (line.startsWith("seckill_stream_lag")) {
                return (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return -1;
    }
}
