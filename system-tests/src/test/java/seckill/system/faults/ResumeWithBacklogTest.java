package seckill.system.faults;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.StreamEntryID;
import seckill.drill.api.InvariantCheck;
import seckill.ledger.api.OrderingSwitch;
import seckill.reservation.api.ReservationEventFields;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;

/**
 * "Stop issuing, count what is unsettled, then resume" holds for a backlog of any size (#29, item
 * 11). Reconciliation reads a bucket's unsettled events {@code seckill.settlement.snapshot-page-size}
 * at a time (50 here, 10,000 by default); a backlog of more than that used to be answered
 * IN_FLIGHT, and a halt waits for CLEAN, so sales stayed halted for as long as the backlog stayed
 * above the limit: with the ordering workers down, for good; with ordering paced below the selling
 * rate of the other instances, for the rest of the sale. Here the workers are stopped, 120 buyers
 * hold 202s, sales are halted from outside (an operator; Redis paused so a purchase is in doubt),
 * and they must resume with the 120 events still unsettled, counted exactly. Then the workers run
 * and every 202 becomes exactly one order, read from MariaDB and Redis.
 */
@AddConfig(key = "seckill.ordering.enabled", value = "false")
// a page counts stream entries, and a coalesced call's reservations share one (issue #35): at most 16
// buyers at once make at least 8 entries of the 120 reservations
@AddConfig(key = "seckill.settlement.snapshot-page-size", value = "5")
@AddConfig(key = "seckill.redis.timeout-millis", value = "500")
class ResumeWithBacklogTest extends ServiceTest {

    private static final long SKU = 7701;
    private static final int UNITS = 200;
    private static final int BUYERS = 120;

    @Inject
    OrderingSwitch ordering;

    private SaleFixture sale;

    @BeforeEach
    void fixture() {
        sale = new SaleFixture(target.getUri(), db);
        // the ordering instances are down: nothing drains the backlog while sales are halted
        ordering.pause();
    }

    @AfterEach
    void openSales() {
        ordering.resume();
        admin("/api/v1/admin/sales/resume?force=true");
    }

    @Test
    void anOperatorsHaltResumesOverABacklogLargerThanOneSnapshotPage() throws Exception {
        long activity = sale.createOpenActivity(SKU, UNITS, 1);
        List<String> reserved = buy(activity, SKU, BUYERS);
        String events = InvariantCheck.bucketKey(activity, SKU, 0, 1, "events");
        long recorded = 0;
        for (var entry : redis.xrange(events, (StreamEntryID) null, null)) {
            recorded += ReservationEventFields.namedAll(entry.getFields()).size();
        }
        assertThat(recorded, is((long) BUYERS));
        assertThat("more entries than a snapshot page", redis.xlen(events), greaterThan(5L));

        admin("/api/v1/admin/sales/halt");
        assertThat(SaleFixture.field(admin("/api/v1/admin/sales").body(), "state"), is("HALTED"));
        HttpResponse<String> resumed = admin("/api/v1/admin/sales/resume");
        assertThat(resumed.body(), resumed.statusCode(), is(200));
        assertThat(SaleFixture.field(resumed.body(), "state"), is("OPEN"));
        // resumed with the backlog still unsettled: it was counted, not waited for
        assertThat(sale.orders(activity), is(0L));
        assertThat(reconciliation(activity), is("CLEAN"));

        everyReservationBecomesOneOrder(activity, SKU, reserved);
    }

    @Test
    void aHaltInDoubtResumesByItselfOverABacklogLargerThanOneSnapshotPage() throws Exception {
        long sku = SKU + 1;
        long activity = sale.createOpenActivity(sku, UNITS, 1);
        List<String> reserved = new ArrayList<>(buy(activity, sku, BUYERS));

        // Redis paused from outside for longer than the service waits: the purchase in flight is in doubt
        // (held until the halt is seen, then ended by the test: a fixed 1.5 s could end before a loaded machine
        // sent the purchase, which then was not in doubt)
        SaleFixture.pauseRedis(redis, 15_000);
        CompletableFuture<HttpResponse<String>> inDoubt;
        try {
            inDoubt = CompletableFuture.supplyAsync(
                    () -> purchase(activity, activity * 1000 + BUYERS + 1, sku, "in-doubt"));
            SaleFixture.await("sales halted in doubt", Duration.ofSeconds(10),
                    () -> "HALTED".equals(SaleFixture.field(admin("/api/v1/admin/sales").body(), "state")));
        } finally {
            SaleFixture.unpauseRedis(redis);
        }
        HttpResponse<String> doubtful = inDoubt.get();
        assertThat(doubtful.body(), doubtful.statusCode(), is(503));

        // the resume check runs every 2 s; with more than a page in flight it used to wait for ever
        // (60 s: a check every 2 s on a loaded CI machine; the defect was a wait for ever)
        SaleFixture.await("sales resumed by themselves", Duration.ofSeconds(60),
                () -> "OPEN".equals(SaleFixture.field(admin("/api/v1/admin/sales").body(), "state")));
        assertThat(sale.orders(activity), is(0L));
        // the buyer in doubt retries with the same requestId and learns what they hold
        HttpResponse<String> retried = purchase(activity, activity * 1000 + BUYERS + 1, sku, "in-doubt");
        assertThat(retried.body(), retried.statusCode() == 202 || retried.statusCode() == 200, is(true));
        reserved.add(SaleFixture.field(retried.body(), "reservationId"));

        everyReservationBecomesOneOrder(activity, sku, reserved);
    }

    private void everyReservationBecomesOneOrder(long activity, long skuId, List<String> reserved) {
        ordering.resume();
        SaleFixture.await("every 202 ordered", Duration.ofSeconds(60), () -> sale.orders(activity) == reserved.size());
        for (String id : reserved) {
            assertThat(id, sale.count("SELECT COUNT(*) FROM seckill_order WHERE reservation_id = ?", id), is(1L));
        }
        assertThat(Long.parseLong(redis.get(InvariantCheck.bucketKey(activity, skuId, 0, 1, "stock"))),
                is((long) UNITS - reserved.size()));
        assertThat(sale.available(activity, skuId), is((long) UNITS - reserved.size()));
        SaleFixture.await("reconciled clean", Duration.ofSeconds(30), () -> "CLEAN".equals(reconciliation(activity)));
    }

    private List<String> buy(long activity, long skuId, int buyers) throws Exception {
        List<Future<HttpResponse<String>>> answers = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(16)) {
            for (int i = 1; i <= buyers; i++) {
                long user = activity * 1000 + i;
                answers.add(pool.submit(() -> purchase(activity, user, skuId, "b-" + user)));
            }
        }
        List<String> ids = new ArrayList<>();
        for (Future<HttpResponse<String>> answer : answers) {
            HttpResponse<String> response = answer.get();
            assertThat(response.body(), response.statusCode(), is(202));
            ids.add(SaleFixture.field(response.body(), "reservationId"));
        }
        return ids;
    }

    private HttpResponse<String> purchase(long activity, long user, long skuId, String requestId) {
        return sale.send(SaleFixture.asBuyer(HttpRequest.newBuilder(
                        sale.base.resolve("/api/v1/activities/" + activity + "/purchases"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"skuId\":%d,\"quantity\":1,\"requestId\":\"%s\"}"
                        .formatted(skuId, requestId))), user));
    }

    private String reconciliation(long activity) {
        HttpResponse<String> answer = admin("/api/v1/admin/activities/" + activity + "/reconciliation");
        assertThat(answer.body(), answer.statusCode(), is(200));
        return answer.body().contains("\"state\":\"CLEAN\"") ? "CLEAN"
                : answer.body().replaceAll("(?s).*\"state\":\"([A-Z_]+)\".*", "$1") + " " + answer.body();
    }

    private HttpResponse<String> admin(String path) {
        HttpRequest.Builder request = HttpRequest.newBuilder(sale.base.resolve(path))
                .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN);
        return sale.send(path.endsWith("/sales") ? request.GET() : request.POST(HttpRequest.BodyPublishers.noBody()));
    }
}
