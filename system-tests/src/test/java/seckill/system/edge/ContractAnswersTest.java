package seckill.system.edge;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Logger;

import io.helidon.microprofile.testing.junit5.AddBean;
import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import redis.clients.jedis.Protocol;
import seckill.drill.api.InvariantCheck;
import seckill.system.MovableClock;
import seckill.system.PaymentCallbacks;
import seckill.system.SaleFixture;
import seckill.system.ServedContract;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.notNullValue;

/**
 * Real answers of a sale, validated against the OpenAPI document the service serves
 * ({@link ServedContract}): every answer below is checked for a documented status, content type,
 * headers and body schema, so an answer that drifts from the contract fails here (issue #32).
 * Real Redis and MariaDB; the states (sold out, halted, throttled, paid) are reached through the API.
 * 503 BUSY and 503 DATABASE_UNAVAILABLE are checked where their faults are made (PurchasesInFlightTest,
 * DatabaseOutageTest); 409 PURCHASE_IN_PROGRESS (a race of one buyer's clicks) and 500 INTERNAL are not.
 */
@AddBean(MovableClock.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@AddConfig(key = "seckill.admission.buyer-rate", value = "2")
@AddConfig(key = "seckill.admission.challenges-per-buyer-per-minute", value = "2")
@AddConfig(key = "seckill.admission.token-keys", value = "k1=contract-answers-test-key-of-32-characters")
@AddConfig(key = "seckill.payment.hmac-key", value = PaymentCallbacks.PAYMENT_KEY)
@AddConfig(key = "seckill.payment.price", value = "99.50")
@AddConfig(key = "seckill.payment.currency", value = "CNY")
class ContractAnswersTest extends ServiceTest {

    private static final Logger LOG = Logger.getLogger(ContractAnswersTest.class.getName());
    private static final long SKU = 3201;
    private static ServedContract contract;

    @Inject
    MovableClock clock;

    private SaleFixture sale;

    @BeforeEach
    void fixture() {
        sale = new SaleFixture(target.getUri(), db);
        if (contract == null) {
            contract = ServedContract.of(target);
        }
    }

    @AfterAll
    static void whatWasChecked() {
        if (contract != null) {
            LOG.info(() -> "answers validated against the served contract: " + contract.checked());
        }
    }

    /** The validator itself: an undocumented status, a field of another type, a required field missing all fail. */
    @Test
    @Order(1)
    void anAnswerThatDriftsFailsTheCheck() {
        ServedContract served = ServedContract.of(target);
        String purchases = "/api/v1/activities/1/purchases";
        Map<String, List<String>> json = Map.of("Content-Type", List.of("application/json"),
                "Location", List.of("/api/v1/reservations/x"));
        Map<String, List<String>> problem = Map.of("Content-Type", List.of("application/problem+json"));
        assertThat("the real shape passes", ServedContract.messages(served.report("POST", purchases, 202, json,
                "{\"reservationId\":\"r1\",\"status\":\"QUEUED\"}")), empty());
        assertThat("undocumented status", ServedContract.messages(served.report("POST", purchases, 418, problem,
                problem(418, "TEAPOT"))), not(empty()));
        assertThat("a field of another type", ServedContract.messages(served.report("POST", purchases, 202, json,
                "{\"reservationId\":7,\"status\":\"QUEUED\"}")), not(empty()));
        assertThat("a value outside its enum", ServedContract.messages(served.report("POST", purchases, 202, json,
                "{\"reservationId\":\"r1\",\"status\":\"SOMETHING\"}")), not(empty()));
        assertThat("a required field missing", ServedContract.messages(served.report("POST", purchases, 202, json,
                "{\"status\":\"QUEUED\"}")), not(empty()));
        assertThat("a problem without its code", ServedContract.messages(served.report("POST", purchases, 410, problem,
                "{\"type\":\"urn:seckill:problem:SOLD_OUT\",\"title\":\"Sold out\",\"status\":410}")), not(empty()));
        assertThat("a 429 without Retry-After", ServedContract.messages(served.report("POST", purchases, 429, problem,
                problem(429, "THROTTLED"))), not(empty()));
        assertThat("another content type", ServedContract.messages(served.report("POST", purchases, 410,
                Map.of("Content-Type", List.of("text/plain")), "sold out")), not(empty()));
    }

    /** A sale from launch to sold out, with every refusal a buyer can meet on the way. */
    @Test
    @Order(2)
    void aSalesAnswersAreTheContracts() {
        long activity = launch(Instant.now().minusSeconds(5), Instant.now().plusSeconds(3600), 2);
        String path = "/api/v1/activities/" + activity;
        assertThat(check(sale.get(path, null)).statusCode(), is(200));
        assertThat(check(sale.get("/api/v1/activities/987654321", null)).statusCode(), is(404));

        // refusals: malformed, unknown, unauthenticated, too large, another media type
        String ok = "{\"skuId\":%d,\"quantity\":1,\"requestId\":\"contract-43\"}".formatted(SKU);
        assertProblem(sale.purchase(activity, "43", "{oops"), 400, "INVALID_REQUEST");
        assertProblem(sale.purchase(activity, "43", "{\"skuId\":%d,\"quantity\":5,\"requestId\":\"q\"}".formatted(SKU)),
                400, "INVALID_QUANTITY");
        assertProblem(sale.purchase(activity, null, ok), 401, "UNAUTHENTICATED");
        assertProblem(sale.purchase(987_654_321L, "43", ok), 404, "ACTIVITY_NOT_FOUND");
        assertProblem(sale.purchase(activity, "43", "{\"skuId\":999,\"quantity\":1,\"requestId\":\"q\"}"), 404, "SKU_NOT_FOUND");
        HttpResponse<String> tooLarge = assertProblem(sale.send(SaleFixture.asBuyer(HttpRequest.newBuilder(
                        sale.base.resolve(path + "/purchases")), 43).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(padded(20 * 1024)))), 413, "PAYLOAD_TOO_LARGE");
        assertThat(SaleFixture.number(tooLarge.body(), "maxBytes"), is(16_384L));
        assertProblem(sale.send(SaleFixture.asBuyer(HttpRequest.newBuilder(sale.base.resolve(path + "/purchases")), 43)
                .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString(ok))), 415,
                "UNSUPPORTED_MEDIA_TYPE");

        // the buyer clicks fast: 202, then the same reservation (200) or the rate limit (429)
        long buyer = 41;
        HttpResponse<String> first = check(sale.purchaseRetrying(activity, buyer, SKU, 1, "contract-41"));
        assertThat(first.body(), first.statusCode(), is(202));
        String reservation = SaleFixture.field(first.body(), "reservationId");
        boolean throttled = false;
        for (int click = 0; click < 20 && !throttled; click++) {
            HttpResponse<String> again = check(sale.purchase(activity, buyer, SKU, 1, "contract-41-" + click));
            assertThat(again.body(), again.statusCode() == 200 || again.statusCode() == 429, is(true));
            if (again.statusCode() == 429) {
                throttled = true;
                assertThat(again.headers().firstValue("Retry-After").orElse(null), notNullValue());
                assertThat(SaleFixture.field(again.body(), "limit"), is("BUYER"));
            }
        }
        assertThat("two clicks a window: a burst of 20 meets the buyer's limit", throttled, is(true));
        HttpResponse<String> repeat = check(sale.purchaseRetrying(activity, buyer, SKU, 1, "contract-41"));
        assertThat(repeat.body(), repeat.statusCode(), is(200));
        assertThat(SaleFixture.field(repeat.body(), "reservationId"), is(reservation));

        // the last unit goes to another buyer; the next one gets 410 with where their reservations are
        assertThat(check(sale.purchaseRetrying(activity, 42, SKU, 1, "contract-42")).statusCode(), is(202));
        HttpResponse<String> soldOut = check(sale.purchaseRetrying(activity, 43, SKU, 1, "contract-43"));
        assertThat(soldOut.body(), soldOut.statusCode(), is(410));
        assertThat(SaleFixture.field(soldOut.body(), "code"), is("SOLD_OUT"));
        assertThat(soldOut.headers().firstValue("Link").orElse(""), containsString("rel=\"reservations\""));

        // the reservation as its buyer follows it, and as nobody else sees it
        assertThat(check(sale.get("/api/v1/reservations/" + reservation, "41")).statusCode(), is(200));
        assertThat(check(sale.get("/api/v1/reservations/" + reservation, "43")).statusCode(), is(404));
        assertThat(check(sale.get("/api/v1/reservations/" + reservation, null)).statusCode(), is(401));
        assertThat(check(sale.get(path + "/reservations", "41")).body(), containsString(reservation));
        assertThat(check(sale.get(path + "/reservations", "43")).statusCode(), is(200));
        assertThat(check(sale.get(path + "/reservations", null)).statusCode(), is(401));
        SaleFixture.await("ordered", Duration.ofSeconds(30), () -> check(sale.get("/api/v1/reservations/" + reservation, "41"))
                .body().contains("\"status\":\"ORDERED\""));

        // before the start
        long upcoming = launch(Instant.now().plusSeconds(3600), Instant.now().plusSeconds(7200), 1);
        HttpResponse<String> early = assertProblem(sale.purchase(upcoming, 44, SKU, 1, "contract-44"), 409, "NOT_STARTED");
        assertThat(early.headers().firstValue("Retry-After").orElse(null), notNullValue());
        assertThat(check(sale.get("/api/v1/activities/" + upcoming, null)).body(), containsString("UPCOMING"));
    }

    /** A halted instance: 503 HALTED with Retry-After, and the admin answers around it. */
    @Test
    @Order(3)
    void aHaltIsTheContracts503() {
        long activity = launch(Instant.now().minusSeconds(5), Instant.now().plusSeconds(3600), 5);
        assertThat(check(admin("POST", "/api/v1/admin/sales/halt")).body(), containsString("HALTED"));
        try {
            assertThat(check(admin("GET", "/api/v1/admin/sales")).body(), containsString("HALTED"));
            HttpResponse<String> halted = assertProblem(sale.purchase(activity, 51, SKU, 1, "contract-51"), 503, "HALTED");
            assertThat(halted.headers().firstValue("Retry-After").orElse(null), notNullValue());
            assertProblem(sale.send(SaleFixture.asBuyer(HttpRequest.newBuilder(sale.base.resolve("/api/v1/activities/"
                    + activity + "/challenges")), 51).POST(HttpRequest.BodyPublishers.noBody())), 503, "HALTED");
        } finally {
            HttpResponse<String> resumed = check(admin("POST", "/api/v1/admin/sales/resume?force=true"));
            assertThat(resumed.body(), resumed.statusCode(), is(200));
        }
        assertThat(check(sale.purchaseRetrying(activity, 51, SKU, 1, "contract-51")).statusCode(), is(202));
    }

    /** The payment provider's callback: paid, paid again, and each refusal. */
    @Test
    @Order(4)
    void thePaymentCallbacksAnswersAreTheContracts() {
        long activity = launch(Instant.now().minusSeconds(5), Instant.now().plusSeconds(3600), 5);
        HttpResponse<String> bought = check(sale.purchaseRetrying(activity, 61, SKU, 1, "contract-61"));
        String reservation = SaleFixture.field(bought.body(), "reservationId");
        SaleFixture.await("ordered", Duration.ofSeconds(30), () -> sale.get("/api/v1/reservations/" + reservation, "61")
                .body().contains("\"status\":\"ORDERED\""));
        String orderNo = SaleFixture.field(check(sale.get("/api/v1/reservations/" + reservation, "61")).body(), "orderNo");

        assertThat(check(pay(orderNo, "pay-" + orderNo, "99.5", true)).statusCode(), is(200));
        assertThat("the same callback again", check(pay(orderNo, "pay-" + orderNo, "99.5", true)).statusCode(), is(200));
        assertThat(check(sale.get("/api/v1/reservations/" + reservation, "61")).body(), containsString("\"orderStatus\":\"PAID\""));
        assertProblem(pay(orderNo, "pay-other-" + orderNo, "99.5", false), 401, "BAD_SIGNATURE");
        assertProblem(pay("000000000000000000000000", "pay-none", "99.5", true), 404, "ORDER_NOT_FOUND");
        assertProblem(pay(orderNo, "pay-other-" + orderNo, "99.5", true), 409, "ALREADY_PAID");
        String invalid = "{\"orderNo\":\"x\"}";
        assertProblem(sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/payments/callback"))
                .header("Content-Type", "application/json").header("X-Signature", PaymentCallbacks.sign(invalid))
                .POST(HttpRequest.BodyPublishers.ofString(invalid))), 400, "INVALID_REQUEST");
        HttpResponse<String> tooLarge = assertProblem(sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/payments/callback"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(padded(20 * 1024)))),
                413, "PAYLOAD_TOO_LARGE");
        assertThat(SaleFixture.number(tooLarge.body(), "maxBytes"), is(16_384L));
    }

    /** Challenges, purchase tokens and the dev sign-in, with the challenges' own 429. */
    @Test
    @Order(5)
    void challengesTokensAndSignInAreTheContracts() throws InterruptedException {
        // the challenges' limit counts per clock minute: the three below must fall in one (on a slow machine they
        // once straddled 03:20:00 and the third was a first of the new minute, 201 instead of 429)
        long intoMinute = clock.clock().millis() % 60_000;
        if (intoMinute > 30_000) {
            Thread.sleep(60_000 - intoMinute + 200);
        }
        long activity = launch(Instant.now().minusSeconds(5), Instant.now().plusSeconds(3600), 5);
        long buyer = 71;
        HttpResponse<String> challenge = check(challenge(activity, buyer));
        assertThat(challenge.body(), challenge.statusCode(), is(201));
        String challengeId = SaleFixture.field(challenge.body(), "challengeId");
        String nonce = SaleFixture.proofOfWork(challenge.body());
        assertProblem(token(activity, buyer, "{\"challengeId\":\"" + challengeId + "\",\"answer\":\"x\"}"), 400,
                "PROOF_OF_WORK_REQUIRED");
        HttpResponse<String> token = check(token(activity, buyer, "{\"challengeId\":\"%s\",\"answer\":\"%s\",\"nonce\":\"%s\"}"
                .formatted(challengeId, SaleFixture.captchaAnswer(redis, challengeId), nonce)));
        assertThat(token.body(), token.statusCode(), is(201));
        assertProblem(token(activity, buyer, "{\"challengeId\":\"%s\",\"answer\":\"WRONG\",\"nonce\":\"%s\"}"
                .formatted(challengeId, nonce)), 403, "CHALLENGE_FAILED");
        assertProblem(token(activity, buyer, "{oops"), 400, "INVALID_REQUEST");
        assertProblem(sale.send(SaleFixture.asBuyer(HttpRequest.newBuilder(sale.base.resolve("/api/v1/activities/" + activity
                + "/tokens")), buyer).header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString("{}"))),
                415, "UNSUPPORTED_MEDIA_TYPE");

        // two challenges a minute per buyer here: the third is the challenges' 429
        assertThat(check(challenge(activity, buyer)).statusCode(), is(201));
        HttpResponse<String> throttled = assertProblem(challenge(activity, buyer), 429, "THROTTLED");
        assertThat(SaleFixture.field(throttled.body(), "limit"), is("BUYER"));
        assertProblem(challenge(activity, 0), 401, "UNAUTHENTICATED");
        assertProblem(challenge(987_654_321L, buyer + 1), 404, "ACTIVITY_NOT_FOUND");

        HttpResponse<String> signedIn = check(sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/dev/sign-in"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"userId\":72}"))));
        assertThat(signedIn.body(), signedIn.statusCode(), is(200));
        assertProblem(sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/dev/sign-in"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"userId\":0}"))),
                400, "INVALID_REQUEST");
    }

    /** The operator's API: launch, overview, switches, reconciliation, preheat, sweep, and a wrong token. */
    @Test
    @Order(6)
    void theAdminAnswersAreTheContracts() {
        String key = UUID.randomUUID().toString();
        String body = newActivity(Instant.now().minusSeconds(5), Instant.now().plusSeconds(3600), 3);
        HttpResponse<String> launched = check(launchRequest(body, key));
        assertThat(launched.body(), launched.statusCode(), is(201));
        long activity = SaleFixture.number(launched.body(), "activityId");
        HttpResponse<String> replayed = check(launchRequest(body, key));
        assertThat(replayed.headers().firstValue("Idempotent-Replayed").orElse(""), is("true"));
        assertProblem(launchRequest(body.replace("\"stock\":3", "\"stock\":4"), key), 422, "IDEMPOTENCY_KEY_REUSED");
        assertProblem(sale.createActivity("{}", SaleFixture.ADMIN_TOKEN), 400, "INVALID_REQUEST");
        assertProblem(sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/activities"))
                .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN).header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString(body))), 415, "UNSUPPORTED_MEDIA_TYPE");
        check(sale.purchaseRetrying(activity, 81, SKU, 1, "contract-81"));

        HttpResponse<String> overview = check(admin("GET", "/api/v1/admin/overview"));
        assertThat(overview.body(), overview.statusCode(), is(200));
        assertThat(check(admin("GET", "/api/v1/admin/overview?activity=" + activity)).body(),
                containsString("\"activityId\":" + activity));
        assertThat(check(admin("GET", "/api/v1/admin/switches")).statusCode(), is(200));
        assertThat(check(admin("GET", "/api/v1/admin/sales")).statusCode(), is(200));
        assertThat(check(admin("POST", "/api/v1/admin/activities/" + activity + "/reconciliation")).statusCode(), is(200));
        assertThat(check(admin("GET", "/api/v1/admin/activities/" + activity + "/reconciliation")).statusCode(), is(200));
        assertThat(check(admin("POST", "/api/v1/admin/activities/" + activity + "/preheat")).statusCode(), is(200));
        assertThat(check(admin("POST", "/api/v1/admin/activities/987654321/preheat")).statusCode(), is(404));
        assertThat(check(admin("POST", "/api/v1/admin/settlement/sweep")).statusCode(), is(200));
        assertProblem(sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/overview"))
                .header("Authorization", "Bearer not-the-admin-token").GET()), 401, "UNAUTHENTICATED");
    }

    /**
     * A SKU launched with a name, a price and no picture (issue #33): the launch, the activity view
     * and the order's view carry them; a payment of another amount is the contract's 409.
     */
    @Test
    @Order(6)
    void aPricedSkusAnswersAreTheContracts() {
        String body = ("{\"name\":\"contract priced\",\"startsAt\":\"%s\",\"endsAt\":\"%s\",\"skus\":[{\"skuId\":%d,"
                + "\"stock\":3,\"perUserLimit\":1,\"name\":\"<i>Phone</i>\",\"price\":{\"amount\":\"12.3\",\"currency\":\"EUR\"}}]}")
                .formatted(Instant.now().minusSeconds(5), Instant.now().plusSeconds(3600), SKU);
        HttpResponse<String> launched = check(launchRequest(body, null));
        assertThat(launched.body(), launched.statusCode(), is(201));
        assertThat(launched.body(), containsString("\"price\":{\"amount\":\"12.30\",\"currency\":\"EUR\"}"));
        long activity = SaleFixture.number(launched.body(), "activityId");
        HttpResponse<String> view = check(sale.get("/api/v1/activities/" + activity, null));
        assertThat(view.body(), containsString("\"name\":\"<i>Phone</i>\""));
        assertProblem(launchRequest(body.replace("\"12.3\"", "\"12.345\""), null), 400, "INVALID_REQUEST");

        HttpResponse<String> bought = check(sale.purchaseRetrying(activity, 91, SKU, 1, "contract-91"));
        String reservation = SaleFixture.field(bought.body(), "reservationId");
        SaleFixture.await("ordered", Duration.ofSeconds(30), () -> sale.get("/api/v1/reservations/" + reservation, "91")
                .body().contains("\"status\":\"ORDERED\""));
        HttpResponse<String> ordered = check(sale.get("/api/v1/reservations/" + reservation, "91"));
        assertThat(ordered.body(), containsString("\"amountDue\":{\"amount\":\"12.30\",\"currency\":\"EUR\"}"));
        String orderNo = SaleFixture.field(ordered.body(), "orderNo");
        // the configured price (99.50 CNY) is not this order's
        assertProblem(pay(orderNo, "pay-" + orderNo, "99.5", true), 409, "AMOUNT_MISMATCH");
        check(sale.get("/api/v1/activities/" + activity + "/reservations", "91"));
    }

    /** A SKU whose stock Redis lost, a sale that ended, and Redis not answering. */
    @Test
    @Order(7)
    void whatALostStockAnEndAndAnAbsentRedisAnswerAreTheContracts() {
        long activity = launch(Instant.now().minusSeconds(5), Instant.now().plusSeconds(3600), 5);
        // Redis loses the SKU's keys (as RedisLostStockTest makes it do)
        for (String key : List.of("stock", "buyers", "events", "refilled", "refilled-units", "served", "preheat", "dead")) {
            redis.del(InvariantCheck.bucketKey(activity, SKU, 0, 1, key));
        }
        HttpResponse<String> notReady = assertProblem(sale.purchase(activity, 91, SKU, 1, "contract-91"), 503, "NOT_READY");
        assertThat(notReady.headers().firstValue("Retry-After").orElse(null), notNullValue());
        // what the operator sees of it: the reconciliation and the overview say NOT_PREHEATED
        assertThat(check(admin("POST", "/api/v1/admin/activities/" + activity + "/reconciliation")).body(),
                containsString("NOT_PREHEATED"));
        assertThat(check(admin("GET", "/api/v1/admin/overview?activity=" + activity)).body(), containsString("NOT_PREHEATED"));
        assertThat(check(admin("POST", "/api/v1/admin/activities/" + activity + "/preheat")).body(), containsString("RESTORED"));
        HttpResponse<String> bought = check(sale.purchase(activity, 91, SKU, 1, "contract-91"));
        assertThat(bought.body(), bought.statusCode(), is(202));

        long ending = launch(Instant.now().minusSeconds(10), Instant.now().plusMillis(1_500), 5);
        clock.advance(Duration.ofMillis(1_600));
        assertProblem(sale.purchase(ending, 92, SKU, 1, "contract-92"), 409, "ENDED");
        assertProblem(challenge(ending, 92), 409, "ENDED");
        assertThat(check(sale.get("/api/v1/activities/" + ending, null)).body(), containsString("\"state\":\"ENDED\""));

        // longer than the service's 2 s Redis timeout, twice
        redis.sendCommand(Protocol.Command.CLIENT, "PAUSE", "5000");
        try {
            assertProblem(challenge(activity, 93), 503, "REDIS_UNAVAILABLE");
            HttpResponse<String> mine = assertProblem(sale.get("/api/v1/activities/" + activity + "/reservations", "91"),
                    503, "REDIS_UNAVAILABLE");
            assertThat(mine.headers().firstValue("Retry-After").orElse(null), notNullValue());
        } finally {
            // blocks until the pause is over
            assertThat(redis.ping(), is("PONG"));
        }
    }

    /** Last: failed admin logins from this address until the throttle answers 429 (it would refuse the tests after it). */
    @Test
    @Order(Integer.MAX_VALUE)
    void theAdminThrottleIsTheContracts429() {
        HttpResponse<String> answer = null;
        for (int attempt = 0; attempt < 200; attempt++) {
            answer = check(sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/sales"))
                    .header("Authorization", "Bearer wrong-" + attempt).GET()));
            if (answer.statusCode() == 429) {
                break;
            }
            assertThat(answer.body(), answer.statusCode(), is(401));
        }
        assertThat(answer.body(), answer.statusCode(), is(429));
        assertThat(SaleFixture.field(answer.body(), "code"), is("THROTTLED"));
        assertThat(answer.headers().firstValue("Retry-After").orElse(null), notNullValue());
        assertThat(contract.checked(), hasItem("GET 429 /api/v1/admin/sales"));
    }

    private HttpResponse<String> check(HttpResponse<String> answer) {
        return contract.check(answer);
    }

    private HttpResponse<String> assertProblem(HttpResponse<String> answer, int status, String code) {
        check(answer);
        assertThat(answer.body(), answer.statusCode(), is(status));
        assertThat(answer.body(), SaleFixture.field(answer.body(), "code"), is(code));
        return answer;
    }

    private long launch(Instant startsAt, Instant endsAt, long stock) {
        HttpResponse<String> launched = check(launchRequest(newActivity(startsAt, endsAt, stock), null));
        assertThat(launched.body(), launched.statusCode(), is(201));
        return SaleFixture.number(launched.body(), "activityId");
    }

    private static String newActivity(Instant startsAt, Instant endsAt, long stock) {
        return "{\"name\":\"contract\",\"startsAt\":\"%s\",\"endsAt\":\"%s\",\"skus\":[{\"skuId\":%d,\"stock\":%d,\"perUserLimit\":1}]}"
                .formatted(startsAt, endsAt, SKU, stock);
    }

    private HttpResponse<String> launchRequest(String body, String idempotencyKey) {
        HttpRequest.Builder request = HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/activities"))
                .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (idempotencyKey != null) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        return sale.send(request);
    }

    private HttpResponse<String> admin(String method, String path) {
        return sale.send(HttpRequest.newBuilder(sale.base.resolve(path))
                .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN)
                .method(method, HttpRequest.BodyPublishers.noBody()));
    }

    private HttpResponse<String> challenge(long activity, long buyer) {
        HttpRequest.Builder request = HttpRequest.newBuilder(sale.base.resolve("/api/v1/activities/" + activity + "/challenges"))
                .POST(HttpRequest.BodyPublishers.noBody());
        return sale.send(buyer > 0 ? SaleFixture.asBuyer(request, buyer) : request);
    }

    private HttpResponse<String> token(long activity, long buyer, String body) {
        return sale.send(SaleFixture.asBuyer(HttpRequest.newBuilder(sale.base.resolve("/api/v1/activities/" + activity
                + "/tokens")), buyer).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private HttpResponse<String> pay(String orderNo, String paymentId, String amount, boolean signed) {
        String body = "{\"orderNo\":\"%s\",\"paymentId\":\"%s\",\"amount\":%s,\"currency\":\"CNY\",\"paidAt\":\"%s\"}"
                .formatted(orderNo, paymentId, amount, Instant.now());
        String signature = signed ? PaymentCallbacks.sign(body) : PaymentCallbacks.sign(body + " ");
        return sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/payments/callback"))
                .header("Content-Type", "application/json").header("X-Signature", signature)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private static String problem(int status, String code) {
        return "{\"type\":\"urn:seckill:problem:%s\",\"title\":\"t\",\"status\":%d,\"code\":\"%s\"}".formatted(code, status, code);
    }

    private static byte[] padded(int size) {
        byte[] json = new byte[size];
        Arrays.fill(json, (byte) ' ');
        byte[] start = "{\"pad\":\"".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        System.arraycopy(start, 0, json, 0, start.length);
        json[size - 2] = '"';
        json[size - 1] = '}';
        return json;
    }
}
