package seckill.system.sale;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.StreamEntryID;

import seckill.drill.api.InvariantCheck;
import seckill.reservation.api.ReservationEvents;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;

/**
 * The flash sale end to end against real Redis and MariaDB: thousands of concurrent buyers over
 * HTTP, with every invariant read back from the ledger tables.
 */
@AddConfig(key = "seckill.ordering.reclaim-idle-seconds", value = "3")
class FlashSaleTest extends ServiceTest {

    private static final long SKU = 7001;

    @Inject
    ReservationEvents events;

    private SaleFixture sale;

    @BeforeEach
    void fixture() {
        sale = new SaleFixture(target.getUri(), db);
    }

    @Test
    void twoThousandBuyersForAHundredUnitsEndWithExactlyAHundredOrders() throws Exception {
        int buyers = 2_000;
        long stock = 100;
        long activity = sale.createOpenActivity(SKU, stock, 1);
        long firstUser = activity * 1_000_000L;

        long claimsBefore = coalescedClaims("reservation");
        Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
        Set<String> reservationIds = ConcurrentHashMap.newKeySet();
        CountDownLatch gate = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> all = new ArrayList<>();
            for (int i = 0; i < buyers; i++) {
                long user = firstUser + i;
                all.add(pool.submit(() -> {
                    gate.await();
                    // on two shared cores 2,000 buyers at once can saturate the instance (429, 503 BUSY);
                    // the buyers honour Retry-After as a client must
                    HttpResponse<String> response = sale.purchaseRetrying(activity, user, SKU, 1, "r-" + user);
                    statuses.computeIfAbsent(response.statusCode(), s -> new AtomicInteger()).incrementAndGet();
                    if (response.statusCode() == 202) {
                        reservationIds.add(SaleFixture.field(response.body(), "reservationId"));
                    }
                    return null;
                }));
            }
            gate.countDown();
            for (Future<?> f : all) {
                f.get();
            }
        }

        assertThat("HTTP outcomes " + statuses, statuses.get(202).get(), is((int) stock));
        assertThat("HTTP outcomes " + statuses, statuses.get(410).get(), is(buyers - (int) stock));
        assertThat(reservationIds, hasSize((int) stock));
        if (coalescing()) {
            // every reservation (and every sold-out answered by Redis) rode on a coalesced call
            assertThat(coalescedClaims("reservation") - claimsBefore >= stock, is(true));
        } else {
            assertThat(coalescedClaims("reservation"), is(claimsBefore));
        }

        SaleFixture.await("all orders", Duration.ofSeconds(60), () -> sale.orders(activity) == stock);
        assertLedgerHolds(activity, stock);
        assertThat(new HashSet<>(sale.column("SELECT reservation_id FROM seckill_order WHERE activity_id = ?", activity)),
                is(reservationIds));

        // every event delivered a second time: rewind the consumer group and let the workers see all of them again
        String stream = InvariantCheck.bucketKey(activity, SKU, 0, 1, "events");
        redis.xgroupSetID(stream, "ordering", new StreamEntryID());
        SaleFixture.await("redelivered events settled", Duration.ofSeconds(60),
                () -> redis.xpending(stream, "ordering").getTotal() == 0 && lastDelivered(stream)
                        .equals(redis.xinfoStream(stream).getLastGeneratedId()));
        assertLedgerHolds(activity, stock);
    }

    @Test
    void oneBuyerClickingTwentyTimesAtOnceGetsOneReservationAndOneOrder() throws Exception {
        long activity = sale.createOpenActivity(SKU, 50, 2);
        long user = activity * 1_000_000L + 42;
        Set<String> ids = ConcurrentHashMap.newKeySet();
        List<Integer> codes = java.util.Collections.synchronizedList(new ArrayList<>());
        CountDownLatch gate = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> all = new ArrayList<>();
            for (int click = 0; click < 20; click++) {
                int n = click;
                all.add(pool.submit(() -> {
                    gate.await();
                    HttpResponse<String> response = sale.purchase(activity, user, SKU, 2, "click-" + user + "-" + n);
                    codes.add(response.statusCode());
                    ids.add(SaleFixture.field(response.body(), "reservationId"));
                    return null;
                }));
            }
            gate.countDown();
            for (Future<?> f : all) {
                f.get();
            }
        }
        assertThat(ids, hasSize(1));
        assertThat(codes.stream().filter(c -> c == 202).count(), is(1L));
        assertThat(codes.stream().filter(c -> c == 200).count(), is(19L));
        SaleFixture.await("the order", Duration.ofSeconds(30), () -> sale.orders(activity) == 1);
        // nothing is left in any stream to become a second order
        SaleFixture.await("every event settled", Duration.ofSeconds(30), () -> events.unsettled() == 0);
        assertThat(sale.orders(activity), is(1L));
        assertThat(sale.count("SELECT quantity FROM seckill_order WHERE activity_id = ?", activity), is(2L));
        assertThat(sale.available(activity, SKU), is(48L));
        assertThat(redis.get(InvariantCheck.bucketKey(activity, SKU, 0, 1, "stock")), is("48"));
    }

    private StreamEntryID lastDelivered(String stream) {
        return redis.xinfoGroups(stream).stream().filter(g -> g.getName().equals("ordering")).findFirst()
                .orElseThrow().getLastDeliveredId();
    }

    /** Whether this run has request coalescing on (the default). */
    boolean coalescing() {
        return true;
    }

    private long coalescedClaims(String path) {
        for (String line : sale.get("/metrics", "1").body().split("\n")) {
            if (line.startsWith("seckill_coalescing_claims_total{") && line.contains("path=\"" + path + "\"")) {
                return (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return 0;
    }

    private void assertLedgerHolds(long activity, long stock) {
        // the shipped auditor: nothing oversold, duplicated or lost, every deduct with its order, Redis agreeing
        assertThat(InvariantCheck.violations(new InvariantCheck(db, redis).audit(activity)), empty());
        assertThat(sale.orders(activity), is(stock));
        assertThat(sale.available(activity, SKU), is(0L));
        assertThat(sale.count("SELECT COUNT(DISTINCT order_no) FROM seckill_order WHERE activity_id = ?", activity),
                is(stock));
    }
}
