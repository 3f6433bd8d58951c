package seckill.system.sale;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.LinkedHashMap;
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
import seckill.system.ServiceTest;
import seckill.system.ShadowDatabase;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;

/**
 * A hostile review of shadow sales (issue #34, docs/rehearsal.md): attacks from outside on the promises that a
 * buyer cannot reach a rehearsal without the edge's signed mark, nor a real activity with one, and that nothing
 * done to a rehearsal changes a real key or row ({@link RealWorldDump}). The real world is kept quiet as in
 * {@link RehearsalLaunchTest} (no settlement).
 */
@AddConfig(key = "seckill.settlement.enabled", value = "false")
class RehearsalAttacksTest extends ServiceTest {

    private static final long SKU = 3407;
    private static final long BUYER = 340_701;

    @Inject
    DevServers devServers;

    private SecondInstance rehearsing(ShadowDatabase shadow) throws Exception {
        return SecondInstance.start(SecondInstance.storesOf(config, devServers), db,
                "seckill.rehearsal.db.url=" + shadow.url(), "seckill.rehearsal.launch.enabled=true",
                "seckill.settlement.enabled=false", "seckill.admission.token-required=false",
                "seckill.rehearsal.edge-key=" + EdgeMarks.KEY);
    }

    private static long launched(SaleFixture sale, String key) {
        HttpResponse<String> launched = RehearsalLaunchTest.launch(sale, key,
                RehearsalLaunchTest.body().replace("\"skuId\":3405", "\"skuId\":" + SKU));
        assertThat(launched.body(), launched.statusCode(), is(201));
        long rehearsal = SaleFixture.number(launched.body(), "activityId");
        assertThat(rehearsal, greaterThanOrEqualTo(World.REHEARSAL_IDS_FROM));
        return rehearsal;
    }

    /**
     * Guard: an operator's reconciliation of a rehearsal ({@code POST /api/v1/admin/activities/{id}/reconciliation},
     * the route the drills and runbooks use) changes no real key or row and halts nothing, whatever it answers. On
     * main it answers 500 ({@code StreamedReservations.registerStreams}: "rh:... is not a stream of the REAL world's
     * registry", reconciliation per world being step 3): held, but only by that refusal, since {@code Reconciling}
     * records each result through the real {@code DbClient} ({@code new SettlementRows(db)}) and keeps it in the
     * alarm the real readiness and halt read; once the registry is asked by world this test is what notices a
     * rehearsal's row in the real {@code seckill_reconciliation} (which the purge, shadow database only, never removes).
     */
    @Test
    void reconcilingARehearsalChangesNoRealRowAndHaltsNothing() throws Exception {
        ShadowDatabase shadow = ShadowDatabase.fresh(db, SecondInstance.storesOf(config, devServers).get("SECKILL_DB_URL"));
        try (SecondInstance on = rehearsing(shadow)) {
            SaleFixture sale = new SaleFixture(on.base(), db);
            RealWorldDump before = RealWorldDump.settled(redis, config);
            long rehearsal = launched(sale, "attack-reconcile-" + System.nanoTime());
            HttpResponse<String> reconciled = sale.send(HttpRequest.newBuilder(
                            sale.base.resolve("/api/v1/admin/activities/" + rehearsal + "/reconciliation"))
                    .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN).POST(HttpRequest.BodyPublishers.noBody()));
            try {
                assertThat(reconciled.body() + "\n" + failures(on.log()), reconciled.statusCode() == 200
                        || reconciled.statusCode() == 500, is(true));
                assertThat("sales still open", sale.salesState().contains("OPEN"), is(true));
                assertThat("real reconciliation rows of the rehearsal", sale.count(
                        "SELECT COUNT(*) FROM seckill_reconciliation WHERE activity_id = ?", rehearsal), is(0L));
                RealWorldDump.of(redis, config).assertUnchangedSince(before);
            } finally {
                assertThat(RehearsalLaunchTest.delete(sale, rehearsal).statusCode(), is(204));
                assertThat("after the purge", sale.count(
                        "SELECT COUNT(*) FROM seckill_reconciliation WHERE activity_id = ?", rehearsal), is(0L));
                // what main leaves behind in the real table is removed here, so later tests' dumps are not disturbed
                db.execute().dml("DELETE FROM seckill_reconciliation WHERE activity_id >= ?", World.REHEARSAL_IDS_FROM);
            }
        }
    }

    /** The log's lines naming an exception, and the lines after each (what the instance said of a 500). */
    private static String failures(String log) {
        List<String> lines = log.lines().toList();
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains("Exception")) {
                lines.subList(i, Math.min(lines.size(), i + 6)).forEach(l -> out.append(l).append('\n'));
            }
        }
        return out.length() > 6000 ? out.substring(0, 6000) : out.toString();
    }

    /**
     * Guard: marks that are not the edge's for this activity and this buyer, now, never reach a rehearsal, on every
     * spelling of its id; a mark on a real activity (any spelling of the real id) is refused; ids past a long or at
     * the boundary are not a way around. Nothing is written to the rehearsal's buyers or the real world.
     */
    @Test
    void marksNotTheEdgesForThisActivityAndBuyerNowNeverReachARehearsal() throws Exception {
        ShadowDatabase shadow = ShadowDatabase.fresh(db, SecondInstance.storesOf(config, devServers).get("SECKILL_DB_URL"));
        SaleFixture here = new SaleFixture(target.getUri(), db);
        long real = here.createOpenActivity(SKU, 5, 1);
        try (SecondInstance on = rehearsing(shadow)) {
            SaleFixture sale = new SaleFixture(on.base(), db);
            RealWorldDump before = RealWorldDump.settled(redis, config);
            long rehearsal = launched(sale, "attack-marks-" + real);
            long now = Instant.now().getEpochSecond();
            String valid = EdgeMarks.mark(rehearsal, BUYER, now);
            String signature = valid.substring(valid.indexOf("v1=") + 3);
            Map<String, String> refused = new LinkedHashMap<>();
            refused.put("another rehearsal's", EdgeMarks.mark(rehearsal + 1, BUYER, now));
            refused.put("another buyer's", EdgeMarks.mark(rehearsal, BUYER + 1, now));
            refused.put("an hour old", EdgeMarks.mark(rehearsal, BUYER, now - 3600));
            refused.put("an hour ahead", EdgeMarks.mark(rehearsal, BUYER, now + 3600));
            refused.put("the a= rewritten", "a=" + (rehearsal + 1) + ",t=" + now + ",v1=" + signature);
            refused.put("the t= rewritten", "a=" + rehearsal + ",t=" + (now + 1) + ",v1=" + signature);
            refused.put("no signature", "a=" + rehearsal + ",t=" + now);
            refused.put("two a= (the last another's)", valid + ",a=" + (rehearsal + 1));
            refused.put("the signature cut", valid.substring(0, valid.length() - 2));
            refused.put("a v2 instead", valid.replace("v1=", "v2="));
            refused.put("a signature for a buyer of 0 digits", "a=" + rehearsal + ",t=" + now + ",v1="
                    + EdgeMarks.mark(rehearsal, 0, now).substring(EdgeMarks.mark(rehearsal, 0, now).indexOf("v1=") + 3));
            refused.put("empty", " ");
            int n = 0;
            for (Map.Entry<String, String> mark : refused.entrySet()) {
                HttpResponse<String> answer = sale.send(SaleFixture.asBuyer(HttpRequest.newBuilder(
                                sale.base.resolve("/api/v1/activities/" + rehearsal + "/purchases"))
                        .header("Content-Type", "application/json").header(EdgeMarks.HEADER, mark.getValue())
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"skuId\":%d,\"quantity\":1,\"requestId\":\"attack-%d\"}".formatted(SKU, n++))), BUYER));
                assertThat(mark.getKey() + ": " + answer.body(), answer.statusCode(), is(404));
            }
            // every spelling of the rehearsal's id, unmarked: not found
            for (String id : List.of(Long.toString(rehearsal), "0" + rehearsal, "+" + rehearsal, "00" + rehearsal)) {
                HttpResponse<String> answer = sale.send(SaleFixture.asBuyer(HttpRequest.newBuilder(sale.base.resolve(
                                "/api/v1/activities/" + id + "/purchases")).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"skuId\":%d,\"requestId\":\"attack-id-%d\"}"
                                .formatted(SKU, n++))), BUYER));
                assertThat(id + ": " + answer.body(), answer.statusCode(), is(404));
            }
            // the edge's valid mark for the rehearsal on a real activity, however its id is spelled: 403
            for (String id : List.of(Long.toString(real), "0" + real, "+" + real)) {
                HttpResponse<String> answer = sale.send(SaleFixture.asBuyer(HttpRequest.newBuilder(sale.base.resolve(
                                "/api/v1/activities/" + id + "/purchases")).header("Content-Type", "application/json")
                        .header(EdgeMarks.HEADER, valid)
                        .POST(HttpRequest.BodyPublishers.ofString("{\"skuId\":%d,\"requestId\":\"attack-real-%d\"}"
                                .formatted(SKU, n++))), BUYER));
                assertThat(id + ": " + answer.body(), answer.statusCode(), is(403));
            }
            // ids past a long, at the boundary, negative: never a way in
            for (String id : List.of("9223372036854775808", "99999999999999999999", "-" + rehearsal, "999999999999999",
                    "9223372036854775807")) {
                HttpResponse<String> answer = sale.send(SaleFixture.asBuyer(HttpRequest.newBuilder(sale.base.resolve(
                                "/api/v1/activities/" + id + "/purchases")).header("Content-Type", "application/json")
                        .header(EdgeMarks.HEADER, valid)
                        .POST(HttpRequest.BodyPublishers.ofString("{\"skuId\":%d,\"requestId\":\"attack-edge-%d\"}"
                                .formatted(SKU, n++))), BUYER));
                assertThat(id + ": " + answer.body(), answer.statusCode() == 202 || answer.statusCode() == 200, is(false));
            }
            // the rehearsal's line, view, reservations and challenge without a mark: as if it did not exist
            for (String path : List.of("", "/reservations", "/queue", "/queue/events")) {
                HttpResponse<String> answer = sale.send(SaleFixture.asBuyer(HttpRequest.newBuilder(sale.base.resolve(
                        "/api/v1/activities/" + rehearsal + path)).GET(), BUYER));
                assertThat(path + ": " + answer.body(), answer.statusCode() == 404
                        || (path.equals("/reservations") && answer.body().contains("[]")), is(true));
            }
            assertThat("nobody holds a unit of the rehearsal", RealWorldDump.keys(redis,
                    "rh:{a" + rehearsal + ":s" + SKU + ":b*}:buyers").keySet().stream()
                    .mapToLong(k -> redis.hlen(k) - (redis.hexists(k, "_") ? 1 : 0)).sum(), is(0L));

            // the edge's own mark still works (so the refusals above were the marks', not a broken rehearsal)
            HttpResponse<String> bought = sale.markedByTheEdge(rehearsal, BUYER).purchaseRetrying(rehearsal, BUYER, SKU, 1,
                    "attack-bought");
            assertThat(bought.body(), bought.statusCode(), is(202));
            String reservation = SaleFixture.field(bought.body(), "reservationId");
            // its reservation id looked up without the mark, with another buyer's, by another buyer: not found
            assertThat(sale.get("/api/v1/reservations/" + reservation, Long.toString(BUYER)).statusCode(), is(404));
            assertThat(sale.markedByTheEdge(rehearsal, BUYER + 1).get("/api/v1/reservations/" + reservation,
                    Long.toString(BUYER)).statusCode(), is(404));
            assertThat(sale.markedByTheEdge(rehearsal, BUYER + 1).get("/api/v1/reservations/" + reservation,
                    Long.toString(BUYER + 1)).statusCode(), is(404));
            assertThat(sale.markedByTheEdge(rehearsal, BUYER).get("/api/v1/reservations/" + reservation,
                    Long.toString(BUYER)).statusCode(), is(200));

            assertThat(RehearsalLaunchTest.delete(sale, rehearsal).statusCode(), is(204));
            RealWorldDump.of(redis, config).assertUnchangedSince(before);
        }
    }

    /**
     * Guard: the purge by any spelling of a boundary or neighbouring id never touches a real activity or another
     * rehearsal: {@code 999999999999999} and its spellings are real (405), a neighbour whose id starts with the
     * rehearsal's digits ({@code <id>1}) or a leading-zero spelling of another id deletes nothing of the rehearsal.
     */
    @Test
    void purgesOfNeighbouringIdsLeaveTheRehearsalAndTheRealWorldAlone() throws Exception {
        ShadowDatabase shadow = ShadowDatabase.fresh(db, SecondInstance.storesOf(config, devServers).get("SECKILL_DB_URL"));
        try (SecondInstance on = rehearsing(shadow)) {
            SaleFixture sale = new SaleFixture(on.base(), db);
            RealWorldDump before = RealWorldDump.settled(redis, config);
            long rehearsal = launched(sale, "attack-purge-" + System.nanoTime());
            Map<String, String> keys = RealWorldDump.keys(redis, "rh:{a" + rehearsal + ":*");
            assertThat(keys.isEmpty(), is(false));
            for (String id : List.of("999999999999999", "0999999999999999", "+999999999999999", "1", "01")) {
                HttpResponse<String> answer = sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/activities/" + id))
                        .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN).DELETE());
                assertThat(id + ": " + answer.body(), answer.statusCode(), is(405));
            }
            for (String id : List.of(rehearsal + "1", rehearsal + "0", Long.toString(rehearsal * 10), Long.toString(rehearsal + 1),
                    "9223372036854775807")) {
                HttpResponse<String> answer = sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/activities/" + id))
                        .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN).DELETE());
                assertThat(id + ": " + answer.body(), answer.statusCode() == 204 || answer.statusCode() == 404, is(true));
            }
            assertThat("the rehearsal's keys", RealWorldDump.keys(redis, "rh:{a" + rehearsal + ":*"), is(keys));
            assertThat(sale.count("SELECT COUNT(*) FROM " + shadow.name() + ".seckill_activity WHERE id = ?", rehearsal), is(1L));
            RealWorldDump.of(redis, config).assertUnchangedSince(before);
            assertThat(RehearsalLaunchTest.delete(sale, rehearsal).statusCode(), is(204));
        }
    }

    /**
     * A request naming a real activity that carries the rehearsal header at all is refused (docs/rehearsal.md: "a
     * real activity with any mark: 403, nothing written"), also when the header comes twice and its first value is
     * empty: on main {@code RehearsalGate} reads the first value only, so an empty first header hides the mark that
     * follows and the marked request buys the real activity's stock. Failed on main (202, a real unit taken).
     */
    @Test
    void aRealActivityIsRefusedToARequestCarryingTheMarkHeaderTwiceWithAnEmptyFirst() {
        SaleFixture here = new SaleFixture(target.getUri(), db);
        long real = here.createOpenActivity(SKU + 1, 5, 1);
        String mark = EdgeMarks.mark(real, BUYER, Instant.now().getEpochSecond());
        for (List<String> values : List.of(List.of("", mark), List.of(" ", mark), List.of(mark, ""), List.of(mark, mark))) {
            HttpRequest.Builder request = SaleFixture.asBuyer(HttpRequest.newBuilder(here.base.resolve(
                            "/api/v1/activities/" + real + "/purchases")).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"skuId\":%d,\"requestId\":\"attack-two-%d\"}"
                            .formatted(SKU + 1, values.hashCode() & 0xffff))), BUYER);
            values.forEach(v -> request.header(EdgeMarks.HEADER, v));
            HttpResponse<String> answer = here.send(request);
            assertThat(values + ": " + answer.body(), answer.statusCode(), is(403));
        }
        assertThat("no real unit taken", here.available(real, SKU + 1), is(5L));
    }

    /**
     * Guard: a rehearsal launch under the Idempotency-Key of a real launch is its own rehearsal (never the real
     * activity replayed), a real launch replayed under that key is still the real one, and a launch body naming a
     * real id ({@code "id"}, {@code "activityId"}) gets a rehearsal id all the same; the real world unchanged.
     */
    @Test
    void aRehearsalLaunchUnderARealLaunchsKeyOrNamingARealIdIsItsOwnRehearsal() throws Exception {
        ShadowDatabase shadow = ShadowDatabase.fresh(db, SecondInstance.storesOf(config, devServers).get("SECKILL_DB_URL"));
        SaleFixture here = new SaleFixture(target.getUri(), db);
        String key = "attack-shared-key-" + System.nanoTime();
        String rehearsalBody = RehearsalLaunchTest.body().replace("\"skuId\":3405", "\"skuId\":" + SKU);
        String realBody = rehearsalBody.replace("\"rehearsal\":true,", "");
        HttpResponse<String> realLaunch = RehearsalLaunchTest.launch(here, key, realBody);
        assertThat(realLaunch.body(), realLaunch.statusCode(), is(201));
        long real = SaleFixture.number(realLaunch.body(), "activityId");
        try (SecondInstance on = rehearsing(shadow)) {
            SaleFixture sale = new SaleFixture(on.base(), db);
            RealWorldDump before = RealWorldDump.settled(redis, config);
            HttpResponse<String> rehearsalLaunch = RehearsalLaunchTest.launch(sale, key, rehearsalBody);
            assertThat(rehearsalLaunch.body(), rehearsalLaunch.statusCode(), is(201));
            long rehearsal = SaleFixture.number(rehearsalLaunch.body(), "activityId");
            assertThat(rehearsal, greaterThanOrEqualTo(World.REHEARSAL_IDS_FROM));
            assertThat(rehearsalLaunch.headers().firstValue("Idempotent-Replayed").isPresent(), is(false));
            HttpResponse<String> realAgain = RehearsalLaunchTest.launch(sale, key, realBody);
            assertThat(realAgain.body(), realAgain.statusCode(), is(201));
            assertThat(SaleFixture.number(realAgain.body(), "activityId"), is(real));
            HttpResponse<String> rehearsalAgain = RehearsalLaunchTest.launch(sale, key, rehearsalBody);
            assertThat(SaleFixture.number(rehearsalAgain.body(), "activityId"), is(rehearsal));
            HttpResponse<String> naming = RehearsalLaunchTest.launch(sale, null, rehearsalBody.replace("{\"name\"",
                    "{\"id\":" + real + ",\"activityId\":" + real + ",\"name\""));
            assertThat(naming.body(), naming.statusCode() == 201 || naming.statusCode() == 400, is(true));
            if (naming.statusCode() == 201) {
                long named = SaleFixture.number(naming.body(), "activityId");
                assertThat(named, greaterThanOrEqualTo(World.REHEARSAL_IDS_FROM));
                assertThat(RehearsalLaunchTest.delete(sale, named).statusCode(), is(204));
            }
            assertThat(RehearsalLaunchTest.delete(sale, rehearsal).statusCode(), is(204));
            RealWorldDump.of(redis, config).assertUnchangedSince(before);
        }
    }
}
