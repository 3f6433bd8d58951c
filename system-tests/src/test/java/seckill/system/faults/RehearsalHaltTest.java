package seckill.system.faults;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import seckill.dev.api.DevServers;
import seckill.system.EdgeMarks;
import seckill.system.MetricSamples;
import seckill.system.SaleFixture;
import seckill.system.SecondInstance;
import seckill.system.ServiceTest;
import seckill.system.ShadowDatabase;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * Halt and resume per world (issue #34, docs/rehearsal.md step 3): an instance with a shadow database keeps one
 * halt state per world, so Redis doubt met by a rehearsal halts rehearsals only, an operator halts and resumes each
 * world apart, and the real world's doubt halts real sales as it always did, leaving rehearsals selling. Faults come
 * from outside: a bucket's stock key replaced in Redis by a value of another type, so the reservation script (and the
 * reconciliation's snapshot) fail on that bucket only, as a Redis that answers nothing certain for it.
 * Every wait is a condition awaited; the halt is awaited before anything is asserted of it.
 */
class RehearsalHaltTest extends ServiceTest {

    private static final long REHEARSAL_SKU = 3450;
    private static final long REAL_SKU = 3451;
    private static final String REAL = "world=\"real\"";
    private static final String REHEARSAL = "world=\"rehearsal\"";
    private static final Duration HALT_WAIT = Duration.ofSeconds(20);

    @Inject
    DevServers devServers;

    /**
     * (a) A rehearsal's purchase meets doubt: the rehearsal world halts (its purchases 503 HALTED), the real world on
     * the same instance keeps reserving, its halt state and gauge open, readiness not told; the rehearsals'
     * reconciliation keeps the halt while the bucket is unreadable, and once it is put back (the admin preheat) the
     * rehearsals' resume check lifts it by itself.
     */
    @Test
    void aRehearsalsDoubtHaltsTheRehearsalsOnly() throws Exception {
        try (Setup setup = Setup.start(this)) {
            SaleFixture sale = setup.sale;
            String stock = "rh:{a" + setup.rehearsal + ":s" + REHEARSAL_SKU + ":b0}:stock";
            String units = redis.get(stock);
            long ttl = redis.pttl(stock);
            assertThat(units, is("20"));
            MetricSamples before = MetricSamples.of(sale);
            // the rehearsals' reconciliation series exist beside the real ones (an instance with a shadow database)
            for (String family : List.of("seckill_reconciliation_mismatches_total", "seckill_reconciliation_oversold_total",
                    "seckill_reconciliation_refills_lost_total", "seckill_orders_timeouts_total",
                    "seckill_refills_applied_total", "seckill_outbox_backlog")) {
                for (String world : List.of(REAL, REHEARSAL)) {
                    assertThat(family + " " + world, before.where(series -> series.startsWith(family + "{")
                            && series.contains(world)).isEmpty(), is(false));
                }
            }

            // the fault, from outside: the rehearsal bucket's stock is no longer a counter
            redis.del(stock);
            redis.hset(stock, "not", "a counter");
            HttpResponse<String> inDoubt = setup.buyRehearsal(1, "halt-a-1");
            assertThat(inDoubt.body(), inDoubt.statusCode(), is(503));
            assertThat(inDoubt.body(), containsString("HALTED"));
            SaleFixture.await("the rehearsal world halted", HALT_WAIT,
                    () -> state(sale, "rehearsal").contains("\"HALTED\""));

            // the rehearsals are refused by admission now, without touching Redis
            HttpResponse<String> refused = setup.buyRehearsal(2, "halt-a-2");
            assertThat(refused.body(), refused.statusCode(), is(503));
            assertThat(refused.body(), containsString("HALTED"));
            // the real sale on the same instance keeps reserving
            HttpResponse<String> real = sale.purchase(setup.real, 345_101, REAL_SKU, 1, "halt-a-real-1");
            assertThat(real.body(), real.statusCode(), is(202));
            assertThat(state(sale, null), is("{\"state\":\"OPEN\"}"));
            assertThat(state(sale, "rehearsal"), containsString("\"world\":\"rehearsal\""));
            MetricSamples halted = MetricSamples.of(sale);
            assertThat(halted.sum("seckill_sales_halted", REAL), is(0.0));
            assertThat(halted.sum("seckill_sales_halted", REHEARSAL), is(1.0));
            assertThat(halted.sum("seckill_sales_halts_total", REHEARSAL), is(1.0));
            assertThat(halted.sum("seckill_sales_halts_total", REAL), is(before.sum("seckill_sales_halts_total", REAL)));
            // readiness is the real sales': a rehearsal's halt does not make the instance unready
            HttpResponse<String> ready = sale.get("/health/ready", null);
            assertThat(ready.body(), not(containsString("\"halted\"")));

            // a resume reconciles the rehearsal world only, and it cannot read the bucket: refused, halted still
            HttpResponse<String> notYet = admin(sale, "sales/resume?world=rehearsal");
            assertThat(notYet.body(), notYet.statusCode(), is(409));
            assertThat(notYet.body(), containsString("NOT_RECONCILED"));
            assertThat(state(sale, "rehearsal"), containsString("\"HALTED\""));
            assertThat(state(sale, null), is("{\"state\":\"OPEN\"}"));

            // healed from outside: the stock a counter again, as it was (nothing was taken meanwhile)
            redis.del(stock);
            redis.set(stock, units);
            redis.pexpire(stock, ttl);  // a bucket's keys expire together (a refill's ids expire like its stock)
            SaleFixture.await("the rehearsal world resumed by itself", Duration.ofSeconds(30),
                    () -> state(sale, "rehearsal").equals("{\"state\":\"OPEN\",\"world\":\"rehearsal\"}"));
            HttpResponse<String> bought = setup.buyRehearsal(3, "halt-a-3");
            assertThat(bought.body(), bought.statusCode(), is(202));
            MetricSamples resumed = MetricSamples.of(sale);
            assertThat(resumed.sum("seckill_sales_halted", REHEARSAL), is(0.0));
            assertThat(resumed.sum("seckill_sales_resumes_total", REHEARSAL), is(1.0));
            assertThat(resumed.sum("seckill_sales_resumes_total", REAL), is(before.sum("seckill_sales_resumes_total", REAL)));
        }
    }

    /** (b) An operator's halt of one world leaves the other selling; each is resumed by its own resume. */
    @Test
    void anOperatorHaltsAndResumesEachWorldApart() throws Exception {
        try (Setup setup = Setup.start(this)) {
            SaleFixture sale = setup.sale;
            HttpResponse<String> halt = admin(sale, "sales/halt?world=rehearsal");
            assertThat(halt.body(), halt.statusCode(), is(200));
            assertThat(halt.body(), containsString("\"HALTED\""));
            assertThat(halt.body(), containsString("\"world\":\"rehearsal\""));
            HttpResponse<String> refused = setup.buyRehearsal(11, "halt-b-1");
            assertThat(refused.body(), refused.statusCode(), is(503));
            assertThat(refused.body(), containsString("HALTED"));
            HttpResponse<String> real = sale.purchase(setup.real, 345_111, REAL_SKU, 1, "halt-b-real-1");
            assertThat(real.body(), real.statusCode(), is(202));
            assertThat(state(sale, null), is("{\"state\":\"OPEN\"}"));
            assertThat(MetricSamples.of(sale).sum("seckill_sales_halted", REAL), is(0.0));
            assertThat(MetricSamples.of(sale).sum("seckill_sales_halted", REHEARSAL), is(1.0));

            // the rehearsals resumed on their own reconciliation (one rehearsal, clean)
            HttpResponse<String> resumed = admin(sale, "sales/resume?world=rehearsal");
            assertThat(resumed.body(), resumed.statusCode(), is(200));
            assertThat(resumed.body(), is("{\"state\":\"OPEN\",\"world\":\"rehearsal\"}"));
            HttpResponse<String> bought = setup.buyRehearsal(12, "halt-b-2");
            assertThat(bought.body(), bought.statusCode(), is(202));

            // the real halt: real sales refused, the rehearsals go on
            HttpResponse<String> realHalt = admin(sale, "sales/halt");
            assertThat(realHalt.body(), realHalt.statusCode(), is(200));
            assertThat(realHalt.body(), containsString("\"HALTED\""));
            assertThat(realHalt.body(), not(containsString("world")));
            HttpResponse<String> realRefused = sale.purchase(setup.real, 345_112, REAL_SKU, 1, "halt-b-real-2");
            assertThat(realRefused.body(), realRefused.statusCode(), is(503));
            assertThat(realRefused.body(), containsString("HALTED"));
            HttpResponse<String> rehearsalGoesOn = setup.buyRehearsal(13, "halt-b-3");
            assertThat(rehearsalGoesOn.body(), rehearsalGoesOn.statusCode(), is(202));
            assertThat(state(sale, "rehearsal"), is("{\"state\":\"OPEN\",\"world\":\"rehearsal\"}"));
            assertThat(MetricSamples.of(sale).sum("seckill_sales_halted", REAL), is(1.0));
            assertThat(MetricSamples.of(sale).sum("seckill_sales_halted", REHEARSAL), is(0.0));
            // resumed by the operator (forced: the real world's reconciliation spans every live real activity of the
            // shared test stores, which this test does not own)
            HttpResponse<String> realResumed = admin(sale, "sales/resume?force=true");
            assertThat(realResumed.body(), realResumed.statusCode(), is(200));
            assertThat(realResumed.body(), is("{\"state\":\"OPEN\"}"));
            HttpResponse<String> realAgain = sale.purchase(setup.real, 345_113, REAL_SKU, 1, "halt-b-real-3");
            assertThat(realAgain.body(), realAgain.statusCode(), is(202));

            HttpResponse<String> unknown = admin(sale, "sales/halt?world=shadow");
            assertThat(unknown.body(), unknown.statusCode(), is(400));
            assertThat(state(sale, null), is("{\"state\":\"OPEN\"}"));
            assertThat(state(sale, "rehearsal"), is("{\"state\":\"OPEN\",\"world\":\"rehearsal\"}"));
        }
    }

    /** (c) The real world's doubt halts real sales as before, and the rehearsals on the same instance keep selling. */
    @Test
    void theRealWorldsDoubtStillHaltsRealSalesAndNotTheRehearsals() throws Exception {
        try (Setup setup = Setup.start(this)) {
            SaleFixture sale = setup.sale;
            String stock = "sk:{a" + setup.real + ":s" + REAL_SKU + ":b0}:stock";
            String units = redis.get(stock);
            long ttl = redis.pttl(stock);
            redis.del(stock);
            redis.hset(stock, "not", "a counter");
            try {
                HttpResponse<String> inDoubt = sale.purchase(setup.real, 345_121, REAL_SKU, 1, "halt-c-real-1");
                assertThat(inDoubt.body(), inDoubt.statusCode(), is(503));
                assertThat(inDoubt.body(), containsString("HALTED"));
                SaleFixture.await("the real world halted", HALT_WAIT,
                        () -> state(sale, null).contains("\"HALTED\""));
                assertThat(state(sale, null), containsString("redis: reservation store did not answer"));
                HttpResponse<String> ready = sale.get("/health/ready", null);
                assertThat(ready.body(), ready.statusCode(), is(503));
                assertThat(ready.body(), containsString("\"halted\""));
                assertThat(MetricSamples.of(sale).sum("seckill_sales_halted", REAL), is(1.0));

                HttpResponse<String> rehearsal = setup.buyRehearsal(21, "halt-c-1");
                assertThat(rehearsal.body(), rehearsal.statusCode(), is(202));
                assertThat(state(sale, "rehearsal"), is("{\"state\":\"OPEN\",\"world\":\"rehearsal\"}"));
                assertThat(MetricSamples.of(sale).sum("seckill_sales_halted", REHEARSAL), is(0.0));
            } finally {
                redis.del(stock);
                redis.set(stock, units);
                if (ttl > 0) {
                    redis.pexpire(stock, ttl);
                }
            }
            HttpResponse<String> resumed = admin(sale, "sales/resume?force=true");
            assertThat(resumed.body(), resumed.statusCode(), is(200));
            HttpResponse<String> real = sale.purchase(setup.real, 345_122, REAL_SKU, 1, "halt-c-real-2");
            assertThat(real.body(), real.statusCode(), is(202));
        }
    }

    /** One instance with a shadow database, a real activity and a rehearsal of 20 units each, both preheated. */
    private record Setup(SecondInstance instance, SaleFixture sale, long real, long rehearsal, RehearsalHaltTest test)
            implements AutoCloseable {

        static Setup start(RehearsalHaltTest test) throws Exception {
            Map<String, String> stores = SecondInstance.storesOf(test.config, test.devServers);
            ShadowDatabase shadowDatabase = ShadowDatabase.fresh(test.db, stores.get("SECKILL_DB_URL"));
            // an earlier rehearsal's keys (its rh:ledger names a shadow ledger dropped just now) would idle the workers
            test.deleteRehearsalKeys();
            SecondInstance instance = SecondInstance.start(stores, test.db,
                    "seckill.rehearsal.db.url=" + shadowDatabase.url(), "seckill.admission.token-required=false",
                    "seckill.rehearsal.edge-key=" + EdgeMarks.KEY);
            try {
                SaleFixture sale = new SaleFixture(instance.base(), test.db);
                long real = sale.createBucketedActivity(REAL_SKU, 20, 1);
                long rehearsal = test.launchedByHand(sale, shadowDatabase.name());
                return new Setup(instance, sale, real, rehearsal, test);
            } catch (RuntimeException | Error e) {
                instance.close();
                throw e;
            }
        }

        HttpResponse<String> buyRehearsal(long buyer, String requestId) {
            long id = 345_000 + buyer;
            return sale.markedByTheEdge(rehearsal, id).purchase(rehearsal, id, REHEARSAL_SKU, 1, requestId);
        }

        @Override
        public void close() throws Exception {
            try {
                instance.close();
            } finally {
                test.deleteRehearsalKeys();
            }
        }
    }

    /** {@code GET /api/v1/admin/sales}, of the real world or {@code ?world=}. */
    private static String state(SaleFixture sale, String world) {
        HttpResponse<String> answer = sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/sales"
                + (world == null ? "" : "?world=" + world))).header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN)
                .GET());
        assertThat(answer.body(), answer.statusCode(), is(200));
        return answer.body();
    }

    private static HttpResponse<String> admin(SaleFixture sale, String path) {
        return sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/" + path))
                .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN)
                .POST(HttpRequest.BodyPublishers.noBody()));
    }

    /** A rehearsal of 20 units of {@link #REHEARSAL_SKU} in the shadow tables (as a launch registers one), preheated. */
    private long launchedByHand(SaleFixture sale, String shadow) {
        db.execute().dml("INSERT INTO " + shadow + ".seckill_activity (name, starts_at, ends_at, payment_window_seconds,"
                + " created_at) VALUES ('rehearsal halt', UTC_TIMESTAMP(3) - INTERVAL 5 SECOND,"
                + " UTC_TIMESTAMP(3) + INTERVAL 10 MINUTE, 600, UTC_TIMESTAMP(3))");
        long rehearsal = sale.count("SELECT MAX(id) FROM " + shadow + ".seckill_activity");
        assertThat(rehearsal, greaterThanOrEqualTo(1_000_000_000_000_000L));
        db.execute().dml("INSERT INTO " + shadow + ".seckill_stock (activity_id, sku_id, total, available, per_user_limit,"
                + " buckets, price_amount, price_currency) VALUES (?, ?, 20, 20, 1, 1, '1.00', 'EUR')", rehearsal,
                REHEARSAL_SKU);
        HttpResponse<String> preheated = admin(sale, "activities/" + rehearsal + "/preheat");
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
