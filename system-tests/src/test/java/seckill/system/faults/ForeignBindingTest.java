package seckill.system.faults;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import io.helidon.microprofile.testing.junit5.AddConfig;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.StreamEntryID;
import seckill.drill.api.InvariantCheck;
import seckill.reservation.api.ReservationId;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/**
 * A running instance notices when its Redis namespace is bound to another ledger (#29 item 8, review):
 * {@code sk:ledger} is rewritten from outside (another deployment took a lost binding, an operator,
 * a restored copy). Within a few seconds this instance halts sales with a reason naming both ledgers,
 * shown on readiness, and its workers stop consuming: an event recorded meanwhile stays undelivered
 * and becomes no order. Bound to this ledger again, the event is ordered, and an operator's resume
 * opens sales.
 */
@AddConfig(key = "seckill.ordering.binding-check-seconds", value = "1")
class ForeignBindingTest extends ServiceTest {

    private static final long SKU = 29_901;
    private static final String FOREIGN = "00000000-0000-4000-8000-000000000029";

    @Test
    void aBindingToAnotherLedgerHaltsSalesAndStopsTheWorkers() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createOpenActivity(SKU, 10, 1);
        long buyer = activity * 1000 + 1;
        assertThat(purchase(sale, activity, buyer, "before").statusCode(), is(202));
        SaleFixture.await("the first order", Duration.ofSeconds(20), () -> sale.orders(activity) == 1);
        String mine = sale.column("SELECT ledger_id FROM seckill_ledger WHERE id = 1").getFirst();
        assertThat(redis.get("sk:ledger"), is(mine));

        redis.set("sk:ledger", FOREIGN);
        try {
            SaleFixture.await("readiness down, naming the other ledger", Duration.ofSeconds(10), () -> {
                HttpResponse<String> ready = sale.get("/health/ready", null);
                return ready.statusCode() == 503 && ready.body().contains(FOREIGN);
            });
            // settlement's resume check (every 2 s) halts sales on the binding's verdict
            SaleFixture.await("sales halted, naming the other ledger", Duration.ofSeconds(5), () -> {
                String sales = sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/sales"))
                        .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN).GET()).body();
                return sales.contains("\"state\":\"HALTED\"") && sales.contains(FOREIGN);
            });
            HttpResponse<String> refused = purchase(sale, activity, buyer + 1, "during");
            assertThat(refused.body(), refused.statusCode(), is(503));
            assertThat(refused.body(), containsString("\"code\":\"HALTED\""));
            // an event recorded as reserve.lua records one (by another instance still selling): not consumed
            String bucket = InvariantCheck.bucketKey(activity, SKU, 0, 1, "");
            String id = new ReservationId(activity, SKU, 0, 4_242).toString();
            redis.decr(bucket + "stock");
            redis.hset(bucket + "buyers", Long.toString(buyer + 2), id);
            redis.xadd(bucket + "events", StreamEntryID.NEW_ENTRY, Map.of("reservationId", id, "userId",
                    Long.toString(buyer + 2), "activityId", Long.toString(activity), "skuId", Long.toString(SKU),
                    "quantity", "1", "requestId", "planted", "reservedAt", Long.toString(System.currentTimeMillis())));
            sleep(3_000);
            assertThat("an event consumed under another ledger's binding", sale.orders(activity), is(1L));
            assertThat(redis.xpending(bucket + "events", "ordering").getTotal(), is(0L));
        } finally {
            redis.set("sk:ledger", mine);
        }
        SaleFixture.await("the event ordered once bound again", Duration.ofSeconds(20), () -> sale.orders(activity) == 2);
        HttpResponse<String> resumed = sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/sales/resume"))
                .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN).POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(resumed.body(), resumed.statusCode(), is(200));
        assertThat(purchase(sale, activity, buyer + 3, "after").statusCode(), is(202));
    }

    private static HttpResponse<String> purchase(SaleFixture sale, long activity, long buyer, String requestId) {
        return sale.send(SaleFixture.asBuyer(HttpRequest.newBuilder(
                        sale.base.resolve("/api/v1/activities/" + activity + "/purchases"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"skuId\":%d,\"quantity\":1,\"requestId\":\"%s\"}"
                        .formatted(SKU, requestId))), buyer));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
