package seckill.system.sale;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import seckill.dev.api.DevServers;
import seckill.system.EdgeMarks;
import seckill.system.MetricSamples;
import seckill.system.PaymentCallbacks;
import seckill.system.RealWorldDump;
import seckill.system.SaleFixture;
import seckill.system.SecondInstance;
import seckill.system.ShadowDatabase;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/**
 * Shadow sales, the ledger's part (issue #34, docs/rehearsal.md steps 1 and 2): an instance given a shadow
 * database ({@code seckill.rehearsal.db.url}) runs a second worker graph for rehearsals. A rehearsal activity
 * (put in the shadow tables by hand, as a launch registers one) is preheated from the shadow ledger
 * through the admin route, bought through the purchase route, ordered by the rehearsal workers into the
 * shadow tables, looked up and paid there; every real row is as it was. The real world is kept quiet as in
 * {@link RehearsalTest} (no settlement on either instance).
 */
@AddConfig(key = "seckill.settlement.enabled", value = "false")
class RehearsalLedgerTest extends ServiceTest {

    private static final long SKU = 3403;
    private static final long BUYER = 340_301;
    private static final String REHEARSAL_WORLD = "world=\"rehearsal\"";
    /** The families a purchase and its ordering move (a timer's decaying _max left out: it moves by itself). */
    private static final java.util.function.Predicate<String> MOVED_BY_A_SALE = series -> series.matches(
            "seckill_(purchases_total|purchase_token_refusals_total|admission_total|reservations_total"
                    + "|orders_created_total|ordering_[a-z_]+)\\{.*") && !series.startsWith("seckill_ordering_transaction_seconds_max");

    @Inject
    DevServers devServers;

    @Test
    void aRehearsalIsOrderedLookedUpAndPaidInTheShadowTablesOnly() throws Exception {
        Map<String, String> stores = SecondInstance.storesOf(config, devServers);
        String url = stores.get("SECKILL_DB_URL");
        ShadowDatabase shadowDatabase = ShadowDatabase.fresh(db, url);
        String real = shadowDatabase.real();
        String shadow = shadowDatabase.name();
        // an earlier rehearsal's keys (its rh:ledger names a shadow ledger dropped just now) would idle the workers
        deleteRehearsalKeys();
        String shadowUrl = shadowDatabase.url();
        RealWorldDump before = RealWorldDump.of(redis, config);
        try (SecondInstance instance = SecondInstance.start(stores, db, "seckill.rehearsal.db.url=" + shadowUrl,
                "seckill.settlement.enabled=false", "seckill.admission.token-required=false",
                "seckill.payment.hmac-key=" + PaymentCallbacks.PAYMENT_KEY, "seckill.rehearsal.edge-key=" + EdgeMarks.KEY)) {
            SaleFixture sale = new SaleFixture(instance.base(), db);
            long rehearsal = launchedByHand(sale, shadow, "rehearsal", 600);

            assertThat(redis.exists("rh:{a" + rehearsal + ":s" + SKU + ":b0}:stock"), is(true));

            // the buyer's requests carry the edge's mark for this rehearsal (without it the rehearsal is hidden: 404,
            // counted as what it looks like, a purchase of an unknown activity in the real world)
            SaleFixture buyer = sale.markedByTheEdge(rehearsal, BUYER);
            MetricSamples unmarkedBefore = MetricSamples.of(sale);
            assertThat(sale.purchase(rehearsal, BUYER, SKU, 1, "rehearsal-ledger-0").statusCode(), is(404));
            MetricSamples figuresBefore = MetricSamples.of(sale);
            assertThat(figuresBefore.sum("seckill_purchases_total", "outcome=\"activity_not_found\"", "world=\"real\"")
                    - unmarkedBefore.sum("seckill_purchases_total", "outcome=\"activity_not_found\"", "world=\"real\""),
                    is(1.0));
            // the rehearsal workers' series exist from their start, at 0 until the first rehearsal is ordered
            assertThat(figuresBefore.where(MetricSamples.inWorld("rehearsal")).toString(),
                    figuresBefore.where(MetricSamples.inWorld("rehearsal")).values().stream().allMatch(v -> v == 0), is(true));
            HttpResponse<String> bought = buyer.purchaseRetrying(rehearsal, BUYER, SKU, 1, "rehearsal-ledger-1");
            assertThat(bought.body(), bought.statusCode(), is(202));
            String reservation = SaleFixture.field(bought.body(), "reservationId");
            assertThat(reservation, startsWith(rehearsal + "-"));

            // ordered by the rehearsal workers, into the shadow tables
            SaleFixture.await("the rehearsal's order in the shadow ledger", Duration.ofSeconds(30), () -> sale.count(
                    "SELECT COUNT(*) FROM " + shadow + ".seckill_order WHERE reservation_id = ?", reservation) == 1);
            assertThat(sale.count("SELECT available FROM " + shadow + ".seckill_stock WHERE activity_id = ?", rehearsal),
                    is(4L));
            assertThat(sale.count("SELECT COUNT(*) FROM seckill_order WHERE reservation_id = ?", reservation), is(0L));
            // read by the rehearsal workers only: no real worker of either instance ever joined its group
            List<String> consumers = redis.xinfoConsumers("rh:{a" + rehearsal + ":s" + SKU + ":b0}:events", "ordering")
                    .stream().map(c -> c.getName()).toList();
            assertThat(consumers.toString(), consumers.isEmpty(), is(false));
            assertThat(consumers.toString(), consumers.stream().allMatch(c -> c.matches(".*-rh-w[0-9]+")), is(true));

            // counted under world="rehearsal" only: the real series of the purchase, admission, reservation and
            // ordering are as they were (docs/rehearsal.md, "Metrics: the world label")
            SaleFixture.await("the rehearsal's order counted", Duration.ofSeconds(10), () -> MetricSamples.of(sale)
                    .sum("seckill_orders_created_total", REHEARSAL_WORLD) == 1);
            MetricSamples figures = MetricSamples.of(sale);
            assertThat(figures.sum("seckill_purchases_total", "outcome=\"reserved\"", REHEARSAL_WORLD), is(1.0));
            assertThat(figures.sum("seckill_admission_total", "outcome=\"admitted\"", REHEARSAL_WORLD),
                    greaterThanOrEqualTo(1.0));
            assertThat(figures.sum("seckill_reservations_total", REHEARSAL_WORLD), is(1.0));
            assertThat(figures.sum("seckill_ordering_transaction_seconds_count", REHEARSAL_WORLD),
                    greaterThanOrEqualTo(1.0));
            assertThat(figures.where(MOVED_BY_A_SALE.and(MetricSamples.inWorld("real"))).isEmpty(), is(false));
            assertThat(figures.where(MOVED_BY_A_SALE.and(MetricSamples.inWorld("real"))),
                    is(figuresBefore.where(MOVED_BY_A_SALE.and(MetricSamples.inWorld("real")))));
            assertThat(figures.where(MOVED_BY_A_SALE).keySet().stream().filter(series -> !series.contains("world=\""))
                    .toList(), is(List.of()));
            // the operations view: the rehearsal apart (rehearsalTotals), the real totals without it
            HttpResponse<String> overview = sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/overview"))
                    .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN).GET());
            assertThat(overview.body(), overview.statusCode(), is(200));
            try (jakarta.json.JsonReader reader = jakarta.json.Json.createReader(new java.io.StringReader(overview.body()))) {
                jakarta.json.JsonObject view = reader.readObject();
                assertThat(view.toString(), view.getJsonObject("rehearsalTotals").getJsonObject("purchases")
                        .getInt("reserved"), is(1));
                assertThat(view.toString(), view.getJsonObject("rehearsalTotals").getInt("ordersCreated"), is(1));
                assertThat(view.toString(), view.getJsonObject("totals").getJsonObject("purchases")
                        .getInt("reserved"), is((int) figuresBefore.sum("seckill_purchases_total",
                                "outcome=\"reserved\"", "world=\"real\"")));
                assertThat(view.toString(), view.getJsonObject("totals").getInt("ordersCreated"),
                        is((int) figuresBefore.sum("seckill_orders_created_total", "world=\"real\"")));
            }

            // looked up from the shadow tables: its number tells its world
            HttpResponse<String> status = buyer.get("/api/v1/reservations/" + reservation, Long.toString(BUYER));
            assertThat(status.body(), status.statusCode(), is(200));
            assertThat(SaleFixture.field(status.body(), "status"), is("ORDERED"));
            String orderNo = SaleFixture.field(status.body(), "orderNo");
            assertThat(orderNo, startsWith("R"));
            assertThat(SaleFixture.field(status.body(), "orderStatus"), is("PENDING"));

            // paid in the shadow tables
            String body = "{\"orderNo\":\"%s\",\"paymentId\":\"%s\",\"amount\":1.00,\"currency\":\"EUR\",\"paidAt\":\"%s\"}"
                    .formatted(orderNo, "rh-pay-" + rehearsal, Instant.now());
            HttpResponse<String> paid = sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/payments/callback"))
                    .header("Content-Type", "application/json").header("X-Signature", PaymentCallbacks.sign(body))
                    .POST(HttpRequest.BodyPublishers.ofString(body)));
            assertThat(paid.body(), paid.statusCode(), is(200));
            assertThat(sale.count("SELECT status FROM " + shadow + ".seckill_order WHERE order_no = ?", orderNo), is(1L));
            assertThat(sale.count("SELECT COUNT(*) FROM " + shadow + ".seckill_payment WHERE order_no = ?", orderNo), is(1L));
            assertThat(SaleFixture.field(buyer.get("/api/v1/reservations/" + reservation, Long.toString(BUYER)).body(),
                    "orderStatus"), is("PAID"));
            // its payment counted under world="rehearsal" (the order number's world), no real payment series moved
            MetricSamples afterPaying = MetricSamples.of(sale);
            assertThat(afterPaying.sum("seckill_payments_total", "outcome=\"accepted\"", REHEARSAL_WORLD), is(1.0));
            java.util.function.Predicate<String> realPayments = series -> series.startsWith("seckill_payments_total{")
                    && series.contains("world=\"real\"");
            assertThat(afterPaying.where(realPayments).isEmpty(), is(false));
            // (registered by this instance's first callback, this one: no real callback came before it)
            assertThat(afterPaying.where(realPayments).toString(),
                    afterPaying.where(realPayments).values().stream().allMatch(v -> v == 0), is(true));
        } finally {
            deleteRehearsalKeys();
        }
        // no real row changed: not by the order, the lookup or the payment (the instance's start writes real keys
        // of its own, its node lease, so the tables are compared here)
        assertThat(RealWorldDump.of(redis, config).tables(), is(before.tables()));
    }

    /**
     * Step 3 (settlement per world): the instance runs only the rehearsals' sweeps
     * ({@code seckill.rehearsal.settlement.enabled}, the real ones off as above). A rehearsal order whose payment
     * window ends is expired by the rehearsal timeout sweep in the shadow tables, and its unit goes back to its
     * {@code rh:} bucket through the shadow outbox; every real key and row is as it was.
     */
    @Test
    void aRehearsalsOverdueOrderIsExpiredAndRefilledInTheShadowWorldOnly() throws Exception {
        Map<String, String> stores = SecondInstance.storesOf(config, devServers);
        ShadowDatabase shadowDatabase = ShadowDatabase.fresh(db, stores.get("SECKILL_DB_URL"));
        String shadow = shadowDatabase.name();
        deleteRehearsalKeys();
        try (SecondInstance instance = SecondInstance.start(stores, db, "seckill.rehearsal.db.url=" + shadowDatabase.url(),
                "seckill.settlement.enabled=false", "seckill.rehearsal.settlement.enabled=true",
                "seckill.admission.token-required=false",
                "seckill.rehearsal.edge-key=" + EdgeMarks.KEY)) {
            SaleFixture sale = new SaleFixture(instance.base(), db);
            // a payment window of 2 s: the order is overdue soon after it is placed
            long rehearsal = launchedByHand(sale, shadow, "rehearsal timeout", 2);
            String stock = "rh:{a" + rehearsal + ":s" + SKU + ":b0}:stock";
            assertThat(redis.get(stock), is("5"));
            // the real world as it is with this instance running (its start wrote its own lease)
            RealWorldDump before = RealWorldDump.settled(redis, config);
            MetricSamples figuresBefore = MetricSamples.of(sale);

            HttpResponse<String> bought = sale.markedByTheEdge(rehearsal, BUYER + 1)
                    .purchaseRetrying(rehearsal, BUYER + 1, SKU, 1, "rehearsal-timeout-1");
            assertThat(bought.body(), bought.statusCode(), is(202));
            String reservation = SaleFixture.field(bought.body(), "reservationId");
            assertThat(redis.get(stock), is("4"));

            // ordered, then expired by the rehearsal sweep in the shadow tables
            SaleFixture.await("the rehearsal's order timed out in the shadow ledger", Duration.ofSeconds(40), () -> sale.count(
                    "SELECT COUNT(*) FROM " + shadow + ".seckill_order WHERE reservation_id = ? AND status = 2",
                    reservation) == 1);
            // its unit back in the shadow stock row and, through the shadow outbox, in its rh: bucket
            SaleFixture.await("the rehearsal's refill applied from the shadow outbox", Duration.ofSeconds(30), () -> sale.count(
                    "SELECT COUNT(*) FROM " + shadow + ".stock_sync_outbox WHERE reservation_id = ? AND status = 1",
                    reservation) == 1);
            assertThat(redis.get(stock), is("5"));
            assertThat(sale.count("SELECT available FROM " + shadow + ".seckill_stock WHERE activity_id = ?", rehearsal),
                    is(5L));
            assertThat(sale.count("SELECT COUNT(*) FROM stock_sync_outbox WHERE reservation_id = ?", reservation), is(0L));
            // counted under world="rehearsal" (step 5): the timeout and the refill; the real series as they were
            MetricSamples figures = MetricSamples.of(sale);
            assertThat(figures.sum("seckill_orders_timeouts_total", REHEARSAL_WORLD), is(1.0));
            assertThat(figures.sum("seckill_refills_applied_total", REHEARSAL_WORLD), is(1.0));
            assertThat(figures.sum("seckill_outbox_backlog", REHEARSAL_WORLD), is(0.0));
            for (String family : List.of("seckill_orders_timeouts_total", "seckill_refills_applied_total",
                    "seckill_outbox_backlog", "seckill_reconciliation_mismatches_total")) {
                assertThat(family, figures.where(series -> series.startsWith(family + "{")
                        && series.contains("world=\"real\"")).isEmpty(), is(false));
                assertThat(family, figures.sum(family, "world=\"real\""), is(figuresBefore.sum(family, "world=\"real\"")));
            }
            RealWorldDump.settled(redis, config).assertUnchangedSince(before);
        } finally {
            deleteRehearsalKeys();
        }
    }

    /**
     * The waiting line of a rehearsal moves (found by attacking the rehearsal path): the line's tick lists the live
     * activities of both worlds, so a buyer who joins a rehearsal's line is called (given a pass) as a real line's
     * buyer would be, and its keys are the rehearsal's. On the old code the tick listed the real catalogue only:
     * the rehearsal's buyer waited for ever.
     */
    @Test
    void aRehearsalsLineCallsItsBuyers() throws Exception {
        Map<String, String> stores = SecondInstance.storesOf(config, devServers);
        ShadowDatabase shadowDatabase = ShadowDatabase.fresh(db, stores.get("SECKILL_DB_URL"));
        deleteRehearsalKeys();
        try (SecondInstance instance = SecondInstance.start(stores, db, "seckill.rehearsal.db.url=" + shadowDatabase.url(),
                "seckill.settlement.enabled=false", "seckill.admission.token-required=false",
                "seckill.queue.enabled=true", "seckill.queue.rate=5", "seckill.queue.tick-millis=50",
                "seckill.rehearsal.edge-key=" + EdgeMarks.KEY)) {
            SaleFixture sale = new SaleFixture(instance.base(), db);
            long rehearsal = launchedByHand(sale, shadowDatabase.name(), "rehearsal line", 600);
            long buyer = BUYER + 2;
            SaleFixture marked = sale.markedByTheEdge(rehearsal, buyer);
            HttpResponse<String> joined = marked.send(SaleFixture.asBuyer(HttpRequest.newBuilder(sale.base.resolve(
                    "/api/v1/activities/" + rehearsal + "/queue")).POST(HttpRequest.BodyPublishers.noBody()), buyer));
            assertThat(joined.body(), joined.statusCode(), is(200));
            SaleFixture.await("the rehearsal's buyer called", Duration.ofSeconds(15), () -> "YOUR_TURN".equals(
                    SaleFixture.field(marked.get("/api/v1/activities/" + rehearsal + "/queue", Long.toString(buyer))
                            .body(), "state")));
            assertThat(redis.keys("rh:{q:a" + rehearsal + "}:*").isEmpty(), is(false));
            assertThat(redis.keys("sk:{q:a" + rehearsal + "}:*").isEmpty(), is(true));
        } finally {
            deleteRehearsalKeys();
        }
    }

    /**
     * A rehearsal of 5 units of {@link #SKU} put in the shadow tables by SQL (its id from 10^15), as step 4's launch
     * registers it, then preheated through the admin route.
     */
    private long launchedByHand(SaleFixture sale, String shadow, String name, int paymentWindowSeconds) {
        db.execute().dml("INSERT INTO " + shadow + ".seckill_activity (name, starts_at, ends_at, payment_window_seconds,"
                + " created_at) VALUES (?, UTC_TIMESTAMP(3) - INTERVAL 5 SECOND, UTC_TIMESTAMP(3) + INTERVAL 10 MINUTE, ?,"
                + " UTC_TIMESTAMP(3))", name, paymentWindowSeconds);
        long rehearsal = sale.count("SELECT MAX(id) FROM " + shadow + ".seckill_activity");
        assertThat(rehearsal, greaterThanOrEqualTo(1_000_000_000_000_000L));
        db.execute().dml("INSERT INTO " + shadow + ".seckill_stock (activity_id, sku_id, total, available, per_user_limit,"
                + " buckets, price_amount, price_currency) VALUES (?, ?, 5, 5, 1, 1, '1.00', 'EUR')", rehearsal, SKU);
        HttpResponse<String> preheated = sale.send(HttpRequest.newBuilder(sale.base.resolve(
                "/api/v1/admin/activities/" + rehearsal + "/preheat")).header("Authorization", "Bearer "
                + SaleFixture.ADMIN_TOKEN).POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(preheated.body(), preheated.statusCode(), is(200));
        return rehearsal;
    }

    /** Every rh: key (only rehearsals write them): this test's, and any an earlier one left. */
    private void deleteRehearsalKeys() {
        String cursor = ScanParams.SCAN_POINTER_START;
        do {
            ScanResult<String> page = redis.scan(cursor, new ScanParams().match("rh:*").count(1000));
            List<String> keys = page.getResult();
            if (!keys.isEmpty()) {
                keys.forEach(redis::del);
            }
            cursor = page.getCursor();
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    }

}
