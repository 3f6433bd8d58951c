package seckill.system.sale;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;

import io.helidon.microprofile.testing.junit5.AddBean;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import seckill.drill.api.InvariantCheck;
import seckill.system.MovableClock;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.startsWith;

/** The HTTP contract: status codes, problem codes, and that bad input changes nothing. */
@AddBean(MovableClock.class)
class PurchaseApiTest extends ServiceTest {

    @Inject
    MovableClock clock;

    private static final long SKU = 8001;

    private SaleFixture sale;

    @BeforeEach
    void fixture() {
        sale = new SaleFixture(target.getUri(), db);
    }

    @Test
    void adminEndpointNeedsTheToken() {
        long before = sale.count("SELECT COUNT(*) FROM seckill_activity");
        String body = """
                {"name":"x","startsAt":"%s","endsAt":"%s","skus":[{"skuId":1,"stock":5}]}"""
                .formatted(Instant.now(), Instant.now().plusSeconds(600));
        assertProblem(sale.createActivity(body, null), 401, "UNAUTHENTICATED");
        assertProblem(sale.createActivity(body, "wrong-token"), 401, "UNAUTHENTICATED");
        assertThat(sale.count("SELECT COUNT(*) FROM seckill_activity"), is(before));
    }

    @Test
    void invalidActivitiesAreRefusedAndCreateNothing() {
        long before = sale.count("SELECT COUNT(*) FROM seckill_activity");
        Instant now = Instant.now();
        String[] bodies = {
                "",
                "not json",
                "[]",
                "{}",
                "{\"name\":\"x\",\"startsAt\":\"yesterday\",\"endsAt\":\"%s\",\"skus\":[{\"skuId\":1,\"stock\":5}]}"
                        .formatted(now.plusSeconds(60)),
                "{\"name\":\"x\",\"startsAt\":\"%s\",\"endsAt\":\"%s\",\"skus\":[{\"skuId\":1,\"stock\":5}]}"
                        .formatted(now.plusSeconds(60), now),
                "{\"name\":\"x\",\"startsAt\":\"%s\",\"endsAt\":\"%s\",\"skus\":[]}".formatted(now, now.plusSeconds(60)),
                "{\"name\":\"x\",\"startsAt\":\"%s\",\"endsAt\":\"%s\",\"skus\":[{\"skuId\":1,\"stock\":0}]}"
                        .formatted(now, now.plusSeconds(60)),
                "{\"name\":\"x\",\"startsAt\":\"%s\",\"endsAt\":\"%s\",\"skus\":[{\"skuId\":1,\"stock\":5},{\"skuId\":1,\"stock\":5}]}"
                        .formatted(now, now.plusSeconds(60)),
                "{\"name\":\"x\",\"startsAt\":\"%s\",\"endsAt\":\"%s\",\"skus\":[{\"skuId\":-1,\"stock\":5,\"perUserLimit\":0}]}"
                        .formatted(now, now.plusSeconds(60)),
                // 19 digits: no reservation id could carry it, so no event of it could ever be parsed
                "{\"name\":\"x\",\"startsAt\":\"%s\",\"endsAt\":\"%s\",\"skus\":[{\"skuId\":1000000000000000000,\"stock\":5}]}"
                        .formatted(now, now.plusSeconds(60)),
        };
        for (String body : bodies) {
            HttpResponse<String> response = sale.createActivity(body, SaleFixture.ADMIN_TOKEN);
            assertProblem(response, 400, "INVALID_REQUEST");
        }
        assertThat(sale.count("SELECT COUNT(*) FROM seckill_activity"), is(before));
    }

    @Test
    void purchaseErrorsAreClearAndTakeNoStock() {
        long activity = sale.createOpenActivity(SKU, 10, 2);
        String ok = "{\"skuId\":%d,\"quantity\":1,\"requestId\":\"req-1\"}".formatted(SKU);
        assertProblem(sale.purchase(activity, null, ok), 401, "UNAUTHENTICATED");
        assertProblem(sale.purchase(activity, "abc", ok), 401, "UNAUTHENTICATED");
        assertProblem(sale.purchase(activity, "-5", ok), 401, "UNAUTHENTICATED");
        assertProblem(sale.purchase(activity, "1", "{oops"), 400, "INVALID_REQUEST");
        assertProblem(sale.purchase(activity, "1", "{\"skuId\":%d}".formatted(SKU)), 400, "INVALID_REQUEST");
        assertProblem(sale.purchase(activity, "1", "{\"skuId\":%d,\"quantity\":3,\"requestId\":\"q\"}".formatted(SKU)),
                400, "INVALID_QUANTITY");
        assertProblem(sale.purchase(activity, "1", "{\"skuId\":%d,\"quantity\":0,\"requestId\":\"q\"}".formatted(SKU)),
                400, "INVALID_REQUEST");
        assertProblem(sale.purchase(activity, "1", "{\"skuId\":%d,\"quantity\":1,\"requestId\":\"bad id!\"}".formatted(SKU)),
                400, "INVALID_REQUEST");
        assertProblem(sale.purchase(activity, "1", "{\"skuId\":999,\"quantity\":1,\"requestId\":\"q\"}"), 404,
                "SKU_NOT_FOUND");
        assertProblem(sale.purchase(activity, "1", "{\"skuId\":1000000000000000000,\"quantity\":1,\"requestId\":\"q\"}"),
                400, "INVALID_REQUEST");
        assertProblem(sale.purchase(987_654_321L, "1", ok), 404, "ACTIVITY_NOT_FOUND");
        assertThat(sale.get("/api/v1/activities/" + activity, null).body(), containsString("\"remaining\":10"));
    }

    @Test
    void saleWindowIsEnforced() throws Exception {
        long upcoming = sale.createActivity(Instant.now().plusSeconds(3600), Instant.now().plusSeconds(7200), SKU, 5, 1);
        HttpResponse<String> early = sale.purchase(upcoming, 1, SKU, 1, "early-1");
        assertProblem(early, 409, "NOT_STARTED");
        assertThat(early.headers().firstValue("Retry-After").orElse(null), notNullValue());
        assertThat(sale.get("/api/v1/activities/" + upcoming, null).body(), containsString("\"state\":\"UPCOMING\""));

        long ending = sale.createActivity(Instant.now().minusSeconds(10), Instant.now().plusMillis(1500), SKU, 5, 1);
        clock.advance(Duration.ofMillis(1_600));
        assertProblem(sale.purchase(ending, 1, SKU, 1, "late-1"), 409, "ENDED");
        assertThat(sale.get("/api/v1/activities/" + ending, null).body(), containsString("\"state\":\"ENDED\""));
        assertThat(sale.count("SELECT COUNT(*) FROM seckill_order WHERE activity_id IN (?, ?)", upcoming, ending), is(0L));
    }

    @Test
    void aBuyerFollowsTheirReservationUntilItIsOrdered() {
        long activity = sale.createOpenActivity(SKU, 1, 1);
        HttpResponse<String> first = sale.purchase(activity, 11, SKU, 1, "buyer-11");
        assertThat(first.statusCode(), is(202));
        assertThat(first.headers().firstValue("Location").orElse(""), containsString("/api/v1/reservations/"));
        String id = SaleFixture.field(first.body(), "reservationId");

        SaleFixture.await("order", Duration.ofSeconds(30),
                () -> sale.get("/api/v1/reservations/" + id, "11").body().contains("\"status\":\"ORDERED\""));
        String status = sale.get("/api/v1/reservations/" + id, "11").body();
        assertThat(status, containsString("\"orderNo\":\""));
        assertThat(status, containsString("\"expiresAt\":\""));

        assertProblem(sale.get("/api/v1/reservations/" + id, "12"), 404, "RESERVATION_NOT_FOUND");
        assertProblem(sale.get("/api/v1/reservations/" + id, null), 401, "UNAUTHENTICATED");
        assertProblem(sale.get("/api/v1/reservations/not-an-id", "11"), 404, "RESERVATION_NOT_FOUND");

        assertProblem(sale.purchase(activity, 12, SKU, 1, "buyer-12"), 410, "SOLD_OUT");
        assertThat(sale.get("/api/v1/activities/" + activity, null).body(), containsString("\"state\":\"SOLD_OUT\""));
        // once the flag is up the instance answers 410 without asking Redis, whoever asks
        HttpResponse<String> again = sale.purchase(activity, 11, SKU, 1, "buyer-11-again");
        assertThat(again.statusCode(), is(410));
    }

    @Test
    void aReservationThatCanNeverBeOrderedIsReportedFailedWithItsReason() {
        long activity = sale.createOpenActivity(SKU + 40, 5, 1);
        String first = SaleFixture.field(sale.purchaseRetrying(activity, 31, SKU + 40, 1, "first").body(),
                "reservationId");
        SaleFixture.await("first order", Duration.ofSeconds(30), () -> sale.orders(activity) == 1);
        // Redis forgets who bought (a lost key): the buyer's second click is reserved, and the ledger,
        // which keeps one order per buyer and SKU, can never order it
        redis.del(InvariantCheck.bucketKey(activity, SKU + 40, 0, 1, "buyers"));
        HttpResponse<String> again = sale.purchaseRetrying(activity, 31, SKU + 40, 1, "second");
        assertThat(again.body(), again.statusCode(), is(202));
        String second = SaleFixture.field(again.body(), "reservationId");
        SaleFixture.await("second settled", Duration.ofSeconds(30),
                () -> sale.get("/api/v1/reservations/" + second, "31").body().contains("FAILED"));
        assertThat(sale.get("/api/v1/reservations/" + second, "31").body(), containsString("BUYER_ALREADY_ORDERED"));
        assertThat(sale.get("/api/v1/reservations/" + first, "31").body(), containsString("ORDERED"));
        assertThat(sale.orders(activity), is(1L));
        assertThat(sale.available(activity, SKU + 40), is(4L));
    }

    @Test
    void theScriptIsReloadedAfterRedisForgetsIt() {
        long activity = sale.createOpenActivity(SKU, 5, 1);
        assertThat(sale.purchase(activity, 21, SKU, 1, "noscript-21").statusCode(), is(202));
        redis.scriptFlush();
        assertThat(sale.purchase(activity, 22, SKU, 1, "noscript-22").statusCode(), is(202));
        assertThat(redis.get(InvariantCheck.bucketKey(activity, SKU, 0, 1, "stock")), is("3"));
    }

    /** The purchase route is a web server route, not JAX-RS: it answers what the JAX-RS resource did. */
    @Test
    void thePurchaseRouteKeepsTheHttpContractOfOtherMethodsMediaTypesAndBodies() {
        long activity = sale.createOpenActivity(SKU + 30, 5, 1);
        String path = "/api/v1/activities/" + activity + "/purchases";
        HttpResponse<String> get = sale.get(path, "7");
        assertProblem(get, 405, "METHOD_NOT_ALLOWED");
        assertThat(get.headers().firstValue("Allow").orElse(""), is("POST"));
        HttpResponse<String> text = sale.send(SaleFixture.asBuyer(java.net.http.HttpRequest.newBuilder(sale.base.resolve(path)), 7)
                .header("Content-Type", "text/plain")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"skuId\":1,\"requestId\":\"r\"}")));
        assertProblem(text, 415, "UNSUPPORTED_MEDIA_TYPE");
        HttpResponse<String> broken = sale.purchase(activity, "7", "{\"skuId\":");
        assertProblem(broken, 400, "INVALID_REQUEST");
        assertThat(broken.body(), containsString("\"instance\":\"" + path + "\""));
        HttpResponse<String> charset = sale.send(SaleFixture.asBuyer(java.net.http.HttpRequest.newBuilder(sale.base.resolve(path)), 7)
                .header("Content-Type", "application/json; charset=UTF-8")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(
                        "{\"skuId\":" + (SKU + 30) + ",\"quantity\":1,\"requestId\":\"cs\"}")));
        assertThat(charset.body(), charset.statusCode(), is(202));
        assertThat(charset.headers().firstValue("Location").orElse(""), startsWith("/api/v1/reservations/"));
        assertThat(charset.headers().firstValue("Content-Type").orElse(""), startsWith("application/json"));
        // the other routes under /api/v1/activities are still JAX-RS's
        assertThat(sale.get("/api/v1/activities/" + activity, null).statusCode(), is(200));
        SaleFixture.await("the one order", Duration.ofSeconds(10), () -> sale.orders(activity) == 1);
    }

    private static void assertProblem(HttpResponse<String> response, int status, String code) {
        assertThat(response.body(), response.statusCode(), is(status));
        assertThat(response.headers().firstValue("Content-Type").orElse(""), startsWith("application/problem+json"));
        assertThat(response.body(), containsString("\"code\":\"" + code + "\""));
    }
}
