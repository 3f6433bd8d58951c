package seckill.system.sale;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;

import java.util.List;
import java.util.Map;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import seckill.dev.api.DevServers;
import seckill.redis.World;
import seckill.system.EdgeMarks;
import seckill.system.RealWorldDump;
import seckill.system.SaleFixture;
import seckill.system.SecondInstance;
import seckill.system.ShadowDatabase;
import seckill.system.ServedContract;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

/**
 * Shadow sales (issue #34, docs/rehearsal.md). Until the rehearsal path is separated end to end, a launch
 * asking for one is refused and leaves every real key and row as it was (dumped before and after). The
 * real world is kept quiet meanwhile, as a rehearsal's dump needs: no settlement here or on the second
 * instance, whose timeout sweep would expire the orders earlier test classes left (their payment windows
 * end during this class) and whose reconciliation writes rows of its own.
 */
@AddConfig(key = "seckill.settlement.enabled", value = "false")
@AddConfig(key = "seckill.rehearsal.edge-key", value = EdgeMarks.KEY)
class RehearsalTest extends ServiceTest {

    private static final long SKU = 3401;
    @Inject
    DevServers devServers;

    @Test
    void aRehearsalIsRefusedAndTheRealWorldIsLeftAsItWas() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        // a real sale with an order, so the dump holds keys and rows of every kind a sale has
        long real = sale.createOpenActivity(SKU, 5, 1);
        assertThat(sale.purchaseRetrying(real, 3401, SKU, 1, "rehearsal-real-1").statusCode(), is(202));
        SaleFixture.await("the real order", Duration.ofSeconds(30), () -> sale.orders(real) == 1);
        // and its event acknowledged: a worker acknowledges after its commit, so a dump taken between the two
        // would see the pending count fall to 0 "during" the refused launch (so it failed under load 23)
        SaleFixture.await("the real order's event acknowledged", Duration.ofSeconds(30),
                () -> redis.xpending("sk:{a" + real + ":s" + SKU + ":b0}:events", "ordering").getTotal() == 0);
        RealWorldDump before = RealWorldDump.settled(redis, config);
        assertThat(before.keys().keySet().stream().anyMatch(k -> k.contains("a" + real + ":")), is(true));
        assertThat(before.tables().get("seckill_order").isEmpty(), is(false));

        String body = """
                {"name":"rehearsal","startsAt":"%s","endsAt":"%s","rehearsal":true,
                 "skus":[{"skuId":%d,"stock":5}]}""".formatted(Instant.now().minusSeconds(5),
                Instant.now().plusSeconds(600), SKU);
        HttpResponse<String> refused = sale.createActivity(body, SaleFixture.ADMIN_TOKEN);
        assertThat(refused.body(), refused.statusCode(), is(501));
        assertThat(refused.headers().firstValue("Content-Type").orElse(""), startsWith("application/problem+json"));
        assertThat(SaleFixture.field(refused.body(), "code"), is("REHEARSAL_NOT_AVAILABLE"));
        // twice, with an Idempotency-Key: nothing is recorded under it either
        assertThat(sale.send(java.net.http.HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/activities"))
                .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN).header("Content-Type", "application/json")
                .header("Idempotency-Key", "rehearsal-" + real)
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body))).statusCode(), is(501));

        RealWorldDump.of(redis, config).assertUnchangedSince(before);
        // the dump sees a change when there is one (so the equality above is not vacuous)
        assertThat(sale.purchaseRetrying(real, 3402, SKU, 1, "rehearsal-real-2").statusCode(), is(202));
        org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
                () -> RealWorldDump.of(redis, config).assertUnchangedSince(before));
    }

    /**
     * The edge's signed mark (docs/rehearsal.md), asked by every buyer route that names an activity: on a real
     * activity any mark, the edge's valid one or not, is 403 REHEARSAL_MARK_ON_REAL_ACTIVITY and nothing real is
     * read or written (the dump); a rehearsal's id without the edge's mark for it and the buyer is answered as an
     * activity that does not exist, and so, while no rehearsal can be launched (501), is one with the mark. Every
     * answer is one the served contract documents.
     */
    @Test
    void everyRouteNamingAnActivityAsksTheEdgesMark() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        ServedContract contract = ServedContract.of(target);
        long sku = SKU + 10;
        long buyer = 3411;
        long real = sale.createOpenActivity(sku, 5, 1);
        HttpResponse<String> bought = sale.purchaseRetrying(real, buyer, sku, 1, "mark-real-1");
        assertThat(bought.body(), bought.statusCode(), is(202));
        String reservation = SaleFixture.field(bought.body(), "reservationId");
        SaleFixture.await("the real order", Duration.ofSeconds(30), () -> sale.orders(real) == 1);
        RealWorldDump before = RealWorldDump.of(redis, config);
        long now = Instant.now().getEpochSecond();

        List<String> marks = List.of(mark(real, buyer, now), mark(real, buyer + 1, now), mark(real, buyer, now - 3600),
                "a=" + real + ",t=" + now + ",v1=" + "0".repeat(64), "x");
        for (String mark : marks) {
            for (Route route : routes(real, sku, reservation)) {
                HttpResponse<String> refused = contract.check(route.ask(sale, buyer, mark));
                assertThat(route + " marked " + mark + ": " + refused.body(), refused.statusCode(), is(403));
                assertThat(refused.headers().firstValue("Content-Type").orElse(""), startsWith("application/problem+json"));
                assertThat(SaleFixture.field(refused.body(), "code"), is("REHEARSAL_MARK_ON_REAL_ACTIVITY"));
            }
        }
        RealWorldDump.of(redis, config).assertUnchangedSince(before);

        // a rehearsal's id (launches answer 501: none exists) is answered as an activity that does not exist,
        // without a mark, with another buyer's, another rehearsal's or a stale one, and with the edge's valid one
        long rehearsal = World.REHEARSAL_IDS_FROM + 34;
        long nobodys = World.REHEARSAL_IDS_FROM - 1;
        List<String> rehearsalMarks = java.util.Arrays.asList(null, mark(rehearsal, buyer + 1, now),
                mark(rehearsal + 1, buyer, now), mark(rehearsal, buyer, now - 3600), mark(rehearsal, buyer, now));
        List<Route> unknown = routes(nobodys, sku, nobodys + "-" + sku + "-0-1");
        List<Route> hidden = routes(rehearsal, sku, rehearsal + "-" + sku + "-0-1");
        for (String mark : rehearsalMarks) {
            for (int i = 0; i < hidden.size(); i++) {
                HttpResponse<String> answer = contract.check(hidden.get(i).ask(sale, buyer, mark));
                HttpResponse<String> none = contract.check(unknown.get(i).ask(sale, buyer, null));
                String what = hidden.get(i) + " marked " + mark + ": " + answer.body();
                assertThat(what, answer.statusCode(), is(none.statusCode()));
                assertThat(what, answer.statusCode(), is(i == 7 ? 200 : 404));
                if (answer.statusCode() == 200) {
                    assertThat(what, answer.body(), is(none.body()));
                } else {
                    assertThat(what, SaleFixture.field(answer.body(), "code"), is(SaleFixture.field(none.body(), "code")));
                    assertThat(what, answer.body(), is(none.body().replace(Long.toString(nobodys), Long.toString(rehearsal))));
                }
            }
        }
        // the public activity view takes the mark without a buyer too (a mark signs a buyer: it is hidden)
        HttpResponse<String> view = sale.send(java.net.http.HttpRequest.newBuilder(
                sale.base.resolve("/api/v1/activities/" + rehearsal)).header(MARK, mark(rehearsal, buyer, now)).GET());
        assertThat(view.statusCode(), is(404));
        assertThat(SaleFixture.field(view.body(), "code"), is("ACTIVITY_NOT_FOUND"));
        assertThat("a rehearsal's refused requests wrote nothing", RealWorldDump.keys(redis, "rh:*").keySet().stream()
                .anyMatch(k -> k.contains(Long.toString(rehearsal))), is(false));
        RealWorldDump.of(redis, config).assertUnchangedSince(before);
        // without a mark the same real routes answer as they always did
        assertThat(contract.check(sale.get("/api/v1/reservations/" + reservation, Long.toString(buyer))).statusCode(),
                is(200));
        assertThat(sale.purchase(real, buyer, sku, 1, "mark-real-1").statusCode(), is(200));
    }

    private static final String MARK = EdgeMarks.HEADER;

    /** A buyer route naming an activity, as the test asks it: a method, a path and a body (null: none). */
    private record Route(String method, String path, String body) {

        java.net.http.HttpResponse<String> ask(SaleFixture sale, long buyer, String mark) {
            java.net.http.HttpRequest.Builder request = java.net.http.HttpRequest.newBuilder(sale.base.resolve(path))
                    .timeout(Duration.ofSeconds(10));
            if (body == null) {
                request.GET();
            } else {
                request.header("Content-Type", "application/json")
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body));
            }
            if (mark != null) {
                request.header(MARK, mark);
            }
            return sale.send(SaleFixture.asBuyer(request, buyer));
        }
    }

    /** Every buyer route that names an activity: in its path, or through a reservation id. */
    private static List<Route> routes(long activity, long sku, String reservationId) {
        String a = "/api/v1/activities/" + activity;
        return List.of(new Route("GET", a, null),
                new Route("POST", a + "/challenges", ""),
                new Route("POST", a + "/tokens", "{\"challengeId\":\"c-1\",\"answer\":\"abc\"}"),
                new Route("POST", a + "/purchases", "{\"skuId\":" + sku + ",\"quantity\":1,\"requestId\":\"marked-1\"}"),
                new Route("POST", a + "/queue", ""),
                new Route("GET", a + "/queue", null),
                new Route("GET", a + "/queue/events", null),
                new Route("GET", a + "/reservations", null),
                new Route("GET", "/api/v1/reservations/" + reservationId, null),
                new Route("POST", a + "/queue/events", ""));
    }

    private static String mark(long activity, long buyer, long epochSeconds) {
        return EdgeMarks.mark(activity, buyer, epochSeconds);
    }

    /**
     * The shadow tables are a second database migrated by the same changelogs (docs/rehearsal.md): an
     * instance given seckill.rehearsal.db.url migrates it to the real ledger's schema, with a ledger id of its
     * own and activity ids from 10^15; one given the real ledger as its shadow refuses to start.
     */
    @Test
    void theShadowTablesAreADatabaseOfTheirOwnWithTheRealSchema() throws Exception {
        Map<String, String> stores = SecondInstance.storesOf(config, devServers);
        String url = stores.get("SECKILL_DB_URL");
        ShadowDatabase shadowDatabase = ShadowDatabase.fresh(db, url);
        String real = shadowDatabase.real();
        String shadow = shadowDatabase.name();
        String shadowUrl = shadowDatabase.url();
        RealWorldDump before = RealWorldDump.settled(redis, config);
        try (SecondInstance instance = SecondInstance.start(stores, db, "seckill.rehearsal.db.url=" + shadowUrl,
                "seckill.settlement.enabled=false")) {
            SaleFixture sale = new SaleFixture(target.getUri(), db);
            String columns = "SELECT CONCAT_WS('|', TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION, COLUMN_TYPE, IS_NULLABLE,"
                    + " COALESCE(COLUMN_DEFAULT, '-'), EXTRA) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ?"
                    + " AND TABLE_NAME NOT LIKE 'DATABASECHANGELOG%' ORDER BY 1";
            String indexes = "SELECT CONCAT_WS('|', TABLE_NAME, INDEX_NAME, NON_UNIQUE, SEQ_IN_INDEX, COLUMN_NAME)"
                    + " FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? ORDER BY 1";
            List<String> realColumns = sale.column(columns, real);
            assertThat(realColumns.size() > 50, is(true));
            assertThat(sale.column(columns, shadow), is(realColumns));
            assertThat(sale.column(indexes, shadow), is(sale.column(indexes, real)));
            assertThat(sale.column("SELECT ledger_id FROM " + shadow + ".seckill_ledger"),
                    not(sale.column("SELECT ledger_id FROM " + real + ".seckill_ledger")));
            db.execute().dml("INSERT INTO " + shadow + ".seckill_activity (name, starts_at, ends_at,"
                    + " payment_window_seconds, created_at) VALUES ('probe', UTC_TIMESTAMP(3), UTC_TIMESTAMP(3), 1, UTC_TIMESTAMP(3))");
            assertThat(sale.count("SELECT MIN(id) FROM " + shadow + ".seckill_activity"), is(1_000_000_000_000_000L));
        }
        // its start left the real tables as they were
        assertThat(RealWorldDump.of(redis, config).tables(), is(before.tables()));

        stores.put("SECKILL_DB_URL", url);
        String log = SecondInstance.startRefused(stores, "seckill.rehearsal.db.url=" + url);
        assertThat(log, containsString("seckill.rehearsal.db.url names the real ledger"));
    }

}
