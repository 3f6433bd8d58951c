package seckill.system.edge;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.helidon.microprofile.testing.junit5.AddBean;
import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import seckill.settlement.api.SettlementSweeps;
import seckill.system.MovableClock;
import seckill.system.PaymentCallbacks;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/**
 * The payment callback attacked from outside (issue #36, item 5): forged, replayed and stale
 * signatures, amounts that are not the price, one paymentId for two orders, a payment after the
 * order's deadline. Every outcome is read from the ledger (the order's status, seckill_payment rows),
 * not only from the answer. The timeout sweep's first scheduled run is an hour away, so "the timeout
 * wins" is shown before any sweep could have run; the service's clock is moved, not waited for.
 */
@AddBean(MovableClock.class)
@AddConfig(key = "seckill.admission.token-required", value = "false")
// the timeout sweep's first run is an hour away; the resume check still lifts a halt a busy Redis caused
@AddConfig(key = "seckill.settlement.timeout-scan-seconds", value = "3600")
@AddConfig(key = "seckill.payment.hmac-key", value = PaymentCallbackAttackTest.KEY)
@AddConfig(key = "seckill.payment.price", value = "99.50")
@AddConfig(key = "seckill.payment.currency", value = "CNY")
@AddConfig(key = "seckill.payment.signature-window-seconds", value = "300")
class PaymentCallbackAttackTest extends ServiceTest {

    static final String KEY = "payment-attack-test-key-of-32-characters";
    private static final long SKU = 36_501;

    @Inject
    Clock clock;

    @Inject
    MovableClock movable;

    @Inject
    SettlementSweeps sweeps;

    private SaleFixture sale;

    @BeforeEach
    void fixture() {
        sale = new SaleFixture(target.getUri(), db);
    }

    @Test
    void forgedReplayedAndStaleSignaturesAreRefused() {
        String order = orders(1).get(0);
        String body = callback(order, "p-sig-" + order, "99.50", "CNY");
        long now = clock.instant().getEpochSecond();

        // today's format: the body alone, valid for ever once seen
        assertThat(send(body, PaymentCallbacks.hex(KEY, body)).statusCode(), is(401));
        assertThat(send(body, "sha256=" + PaymentCallbacks.hex(KEY, body)).statusCode(), is(401));
        // signed an hour ago, and an hour ahead
        assertThat(send(body, PaymentCallbacks.header(KEY, now - 3_600, body)).statusCode(), is(401));
        assertThat(send(body, PaymentCallbacks.header(KEY, now - 301, body)).statusCode(), is(401));
        assertThat(send(body, PaymentCallbacks.header(KEY, now + 3_600, body)).statusCode(), is(401));
        // a timestamp moved without the key: the signature covers it
        String fresh = PaymentCallbacks.header(KEY, now - 400, body).replace("t=" + (now - 400), "t=" + now);
        assertThat(send(body, fresh).statusCode(), is(401));
        // another key, and the right signature over another body
        assertThat(send(body, PaymentCallbacks.header("another-key-of-at-least-32-characters", now, body)).statusCode(), is(401));
        assertThat(send(body.replace("99.50", "0.01"), PaymentCallbacks.header(KEY, now, body)).statusCode(), is(401));
        assertThat(send(body, null).statusCode(), is(401));
        assertThat("nothing forged changed the order", status(order), is(0L));
        assertThat(paymentRows(order), is(0L));

        HttpResponse<String> signed = send(body, PaymentCallbacks.header(KEY, now, body));
        assertThat(signed.body(), signed.statusCode(), is(200));
        assertThat(status(order), is(1L));
        assertThat(paymentRows(order), is(1L));
    }

    @Test
    void amountsAndCurrenciesOtherThanThePriceAreRefusedBeforeTheLedger() {
        String order = orders(1).get(0);
        List<String> refused = new ArrayList<>();
        String[][] attempts = {
                {"0", "CNY"}, {"0.00", "CNY"}, {"-99.50", "CNY"}, {"1e999999", "CNY"}, {"1e-999999", "CNY"},
                {"1e99999999999", "CNY"}, {"99.49", "CNY"}, {"99.51", "CNY"}, {"99.500001", "CNY"}, {"\"99.50\"", "CNY"},
                {"99.50", "USD"}, {"99.50", "cny"}, {"99.50", null}, {"1" + "0".repeat(5_000), "CNY"}};
        for (String[] attempt : attempts) {
            String body = callback(order, "p-amt-" + refused.size() + "-" + order, attempt[0], attempt[1]);
            HttpResponse<String> answer = send(body, PaymentCallbacks.header(KEY, clock.instant().getEpochSecond(), body));
            String label = (attempt[0].length() > 20 ? attempt[0].substring(0, 8) + "…(" + attempt[0].length() + " chars)"
                    : attempt[0]) + " " + attempt[1];
            refused.add(label + " -> " + answer.statusCode());
            assertThat(label + ": " + answer.body(),
                    answer.statusCode() == 400 || answer.statusCode() == 409, is(true));
        }
        System.out.println("refused: " + refused);
        assertThat("no refused amount paid the order", status(order), is(0L));
        assertThat("and none was recorded as a payment", paymentRows(order), is(0L));

        // the exact price, however it is written, pays
        String body = callback(order, "p-amt-ok-" + order, "9.950e1", "CNY");
        HttpResponse<String> paid = send(body, PaymentCallbacks.header(KEY, clock.instant().getEpochSecond(), body));
        assertThat(paid.body(), paid.statusCode(), is(200));
        assertThat(status(order), is(1L));
        assertThat(sale.column("SELECT CONCAT(amount, ' ', currency) FROM seckill_payment WHERE order_no = ?", order),
                is(List.of("99.50 CNY")));
    }

    /**
     * An order of a priced SKU is paid by its own price times its quantity, never by the configured
     * price nor by the right figure in another currency (issue #33); each refusal is counted and
     * leaves the order unpaid with no payment row.
     */
    @Test
    void aPaymentOfAnotherAmountOrCurrencyThanTheOrdersPriceIsRefused() {
        HttpResponse<String> created = sale.createActivity("""
                {"name":"priced sale","startsAt":"%s","endsAt":"%s","skus":[{"skuId":%d,"stock":4,"perUserLimit":2,
                 "name":"Phone","price":{"amount":"12.34","currency":"EUR"}}]}""".formatted(Instant.now().minusSeconds(5),
                Instant.now().plusSeconds(3600), SKU), SaleFixture.ADMIN_TOKEN);
        assertThat(created.body(), created.statusCode(), is(201));
        long activity = SaleFixture.number(created.body(), "activityId");
        long buyer = activity * 1000 + 1;
        HttpResponse<String> reserved = sale.purchaseRetrying(activity, buyer, SKU, 2, "priced-" + buyer);
        assertThat(reserved.body(), reserved.statusCode(), is(202));
        SaleFixture.await("the order", Duration.ofSeconds(30), () -> sale.orders(activity) == 1);
        String order = sale.column("SELECT order_no FROM seckill_order WHERE activity_id = ?", activity).get(0);
        assertThat("the order keeps the price it was sold at",
                sale.column("SELECT CONCAT(price_amount, ' ', price_currency) FROM seckill_order WHERE order_no = ?", order),
                is(List.of("12.34 EUR")));

        double mismatchesBefore = paymentsCounted("amountmismatch");
        String[][] others = {{"99.50", "CNY"}, {"12.34", "EUR"}, {"24.68", "USD"}, {"24.67", "EUR"}, {"24.69", "EUR"}};
        for (String[] other : others) {
            String body = callback(order, "p-priced-" + other[0] + other[1] + "-" + order, other[0], other[1]);
            HttpResponse<String> answer = send(body, PaymentCallbacks.header(KEY, clock.instant().getEpochSecond(), body));
            assertThat(other[0] + " " + other[1] + ": " + answer.body(), answer.statusCode(), is(409));
            assertThat(answer.body(), containsString("\"code\":\"AMOUNT_MISMATCH\""));
            assertThat(answer.headers().firstValue("Content-Type").orElse(""), containsString("application/problem+json"));
        }
        assertThat("each refusal counted", paymentsCounted("amountmismatch") - mismatchesBefore, is((double) others.length));
        assertThat("no other amount paid the order", status(order), is(0L));
        assertThat(paymentRows(order), is(0L));

        // two units at 12.34 EUR, however it is written, pay
        String body = callback(order, "p-priced-ok-" + order, "2.468e1", "EUR");
        HttpResponse<String> paid = send(body, PaymentCallbacks.header(KEY, clock.instant().getEpochSecond(), body));
        assertThat(paid.body(), paid.statusCode(), is(200));
        assertThat(status(order), is(1L));
        assertThat(sale.column("SELECT CONCAT(amount, ' ', currency) FROM seckill_payment WHERE order_no = ?", order),
                is(List.of("24.68 EUR")));
    }

    /** {@code seckill_payments_total} of one outcome, as /metrics exposes it. */
    private double paymentsCounted(String outcome) {
        String text = sale.send(HttpRequest.newBuilder(sale.base.resolve("/metrics")).header("Accept", "text/plain")
                .GET()).body();
        return text.lines().filter(l -> l.startsWith("seckill_payments_total{") && l.contains("outcome=\"" + outcome + "\""))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    @Test
    void onePaymentIdPaysOneOrderAndItsRepeatIsAnsweredTheSame() {
        List<String> orders = orders(2);
        String paymentId = "p-once-" + orders.get(0);
        HttpResponse<String> first = pay(orders.get(0), paymentId);
        assertThat(first.body(), first.statusCode(), is(200));
        HttpResponse<String> second = pay(orders.get(1), paymentId);
        assertThat(second.body(), second.statusCode(), is(409));
        assertThat(second.body(), containsString("PAYMENT_ID_REUSED"));
        assertThat(status(orders.get(1)), is(0L));

        HttpResponse<String> repeat = pay(orders.get(0), paymentId);
        assertThat(repeat.statusCode(), is(200));
        assertThat(repeat.body(), is(first.body()));
        assertThat(sale.column("SELECT order_no FROM seckill_payment WHERE payment_id = ?", paymentId),
                is(List.of(orders.get(0))));
        assertThat(sale.count("SELECT COUNT(*) FROM seckill_order WHERE payment_id = ?", paymentId), is(1L));
    }

    /**
     * Payment ids are case-sensitive (A-Z and a-z are both allowed): two ids that differ only in case
     * are two payments, so neither refuses the other nor loses its audit row to a case-insensitive key.
     */
    @Test
    void paymentIdsThatDifferOnlyInCaseAreTwoPayments() {
        List<String> orders = orders(2);
        String upper = "ch_Case" + orders.get(0);
        String lower = upper.toLowerCase();
        HttpResponse<String> first = pay(orders.get(0), upper);
        assertThat(first.body(), first.statusCode(), is(200));
        HttpResponse<String> second = pay(orders.get(1), lower);
        assertThat(second.body(), second.statusCode(), is(200));
        assertThat(status(orders.get(1)), is(1L));
    }

    @Test
    void aSecondPaymentOfAPaidOrderIsAuditedEvenIfItsIdDiffersOnlyInCase() {
        String order = orders(1).get(0);
        String upper = "ch_Dup" + order;
        assertThat(pay(order, upper).statusCode(), is(200));
        HttpResponse<String> again = pay(order, upper.toLowerCase());
        long rows = sale.count("SELECT COUNT(*) FROM seckill_payment WHERE BINARY payment_id = ?", upper.toLowerCase());
        assertThat(again.statusCode(), is(409));
        assertThat("the refused double payment has its audit row", rows, is(1L));
    }

    @Test
    void onePaymentIdSentForManyOrdersAtOncePaysExactlyOne() throws Exception {
        int n = 8;
        List<String> orders = orders(n);
        String paymentId = "p-race-" + orders.get(0);
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<HttpResponse<String>>> answers = new ArrayList<>();
            for (String order : orders) {
                answers.add(pool.submit(() -> {
                    start.await();
                    return pay(order, paymentId);
                }));
            }
            start.countDown();
            List<Integer> statuses = new ArrayList<>();
            for (Future<HttpResponse<String>> answer : answers) {
                statuses.add(answer.get().statusCode());
            }
            System.out.println("one paymentId for " + n + " orders at once: " + statuses);
            assertThat(statuses.stream().filter(s -> s == 200).count(), is(1L));
        } finally {
            pool.shutdownNow();
        }
        assertThat(sale.count("SELECT COUNT(*) FROM seckill_order WHERE payment_id = ? AND status = 1", paymentId), is(1L));
        assertThat(sale.count("SELECT COUNT(*) FROM seckill_payment WHERE payment_id = ?", paymentId), is(1L));
    }

    @Test
    void aPaymentOneSecondAfterTheDeadlineLosesBeforeAnySweep() {
        List<String> orders = orders(2);
        String late = orders.get(0);
        String onTime = orders.get(1);
        Instant deadline = Instant.parse(sale.column(
                "SELECT DATE_FORMAT(expire_at, '%Y-%m-%dT%H:%i:%s.%fZ') FROM seckill_order WHERE order_no = ?", late).get(0));
        Instant otherDeadline = Instant.parse(sale.column(
                "SELECT DATE_FORMAT(expire_at, '%Y-%m-%dT%H:%i:%s.%fZ') FROM seckill_order WHERE order_no = ?", onTime).get(0));
        // the on-time order pays a little before its own deadline, the late one a second after its own
        Instant payOnTimeAt = otherDeadline.minusSeconds(2);
        movable.advance(Duration.between(clock.instant(), payOnTimeAt));
        HttpResponse<String> inTime = pay(onTime, "p-in-time-" + onTime);
        assertThat(inTime.body(), inTime.statusCode(), is(200));

        movable.advance(Duration.between(clock.instant(), deadline.plusSeconds(1)));
        HttpResponse<String> answer = pay(late, "p-late-" + late);
        assertThat(answer.body(), answer.statusCode(), is(409));
        assertThat(answer.body(), containsString("ORDER_EXPIRED"));
        assertThat("the late payment did not pay", status(late), is(0L));
        assertThat(sale.column("SELECT outcome FROM seckill_payment WHERE order_no = ?", late),
                is(List.of("ORDER_EXPIRED")));
        HttpResponse<String> again = pay(late, "p-late-" + late);
        assertThat(again.statusCode(), is(409));
        assertThat(again.body(), containsString("ORDER_EXPIRED"));

        // and the sweep, when it runs, takes the order the payment did not
        sweeps.expireOverdue();
        assertThat(status(late), is(2L));
        assertThat(status(onTime), is(1L));
        // its unit back in Redis now: a refill left pending would be relayed by the next test class's sweep
        sweeps.relayRefills();
        assertThat(sale.count("SELECT COUNT(*) FROM stock_sync_outbox o JOIN seckill_order r"
                + " ON r.reservation_id = o.reservation_id WHERE r.order_no = ? AND o.status = 0", late), is(0L));
    }

    /** {@code n} pending orders of a fresh activity, one per buyer. */
    private List<String> orders(int n) {
        long activity = sale.createOpenActivity(SKU, n, 1);
        for (int i = 1; i <= n; i++) {
            long buyer = activity * 1000 + i;
            HttpRequest.Builder purchase = HttpRequest.newBuilder(sale.base.resolve(
                            "/api/v1/activities/" + activity + "/purchases"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(
                            "{\"skuId\":%d,\"quantity\":1,\"requestId\":\"pay-%d\"}".formatted(SKU, buyer)));
            HttpResponse<String> answer = sale.send(SaleFixture.asBuyer(purchase, buyer));
            // a shared, busy machine: a Redis answer late enough halts sales until they resume
            for (int attempt = 0; attempt < 40 && (answer.statusCode() == 503 || answer.statusCode() == 429); attempt++) {
                SaleFixture.await("the Retry-After", Duration.ofSeconds(5), sleepUntil(Instant.now().plusSeconds(1)));
                answer = sale.send(SaleFixture.asBuyer(purchase, buyer));
            }
            assertThat(answer.body(), answer.statusCode(), is(202));
        }
        SaleFixture.await("the orders", Duration.ofSeconds(30), () -> sale.orders(activity) == n);
        return sale.column("SELECT order_no FROM seckill_order WHERE activity_id = ? ORDER BY id", activity);
    }

    private static java.util.function.Supplier<Boolean> sleepUntil(Instant at) {
        return () -> !Instant.now().isBefore(at);
    }

    private long status(String orderNo) {
        return sale.count("SELECT status FROM seckill_order WHERE order_no = ?", orderNo);
    }

    private long paymentRows(String orderNo) {
        return sale.count("SELECT COUNT(*) FROM seckill_payment WHERE order_no = ?", orderNo);
    }

    private HttpResponse<String> pay(String orderNo, String paymentId) {
        String body = callback(orderNo, paymentId, "99.50", "CNY");
        return send(body, PaymentCallbacks.header(KEY, clock.instant().getEpochSecond(), body));
    }

    private static String callback(String orderNo, String paymentId, String amount, String currency) {
        return "{\"orderNo\":\"%s\",\"paymentId\":\"%s\",\"amount\":%s,%s\"paidAt\":\"%s\"}".formatted(orderNo,
                paymentId, amount, currency == null ? "" : "\"currency\":\"" + currency + "\",", Instant.now());
    }

    private HttpResponse<String> send(String body, String signature) {
        HttpRequest.Builder request = HttpRequest.newBuilder(sale.base.resolve("/api/v1/payments/callback"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (signature != null) {
            request.header("X-Signature", signature);
        }
        return sale.send(request);
    }
}
