package seckill.system.sale;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import seckill.dev.api.DevServers;
import seckill.redis.World;
import seckill.system.RealWorldDump;
import seckill.system.SaleFixture;
import seckill.system.SecondInstance;
import seckill.system.ShadowDatabase;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;

/**
 * Launching a rehearsal (issue #34, docs/rehearsal.md step 4) needs a shadow database and
 * {@code seckill.rehearsal.launch.enabled} (default true since halt per world, step 3): without the database, or with
 * the switch turned off, {@code "rehearsal": true} answers 501 and nothing is created; with the database at the
 * switch's default, the rehearsal is registered in the shadow ledger (its id from 10^15) and
 * preheated under {@code rh:} keys only; a retry under the same Idempotency-Key finds it. {@code DELETE} then
 * removes it completely (204, again 204), and a real activity is never deleted (405). The real world is kept
 * quiet as in {@link RehearsalTest} (no settlement).
 */
@AddConfig(key = "seckill.settlement.enabled", value = "false")
class RehearsalLaunchTest extends ServiceTest {

    private static final long SKU = 3405;

    @Inject
    DevServers devServers;

    @Test
    void aRehearsalIsLaunchedOnlyWhenSwitchedOnWithAShadowDatabaseAndIsDeletedCompletely() throws Exception {
        SaleFixture here = new SaleFixture(target.getUri(), db);
        // every answer of the launch and the purge as the served contract declares it
        seckill.system.ServedContract contract = seckill.system.ServedContract.of(target);
        long real = here.createOpenActivity(SKU, 5, 1);
        // the switch at its default (on) but no shadow database (this in-process service): 501, nothing created
        assertNotAvailable(here);

        Map<String, String> stores = SecondInstance.storesOf(config, devServers);
        ShadowDatabase shadowDatabase = ShadowDatabase.fresh(db, stores.get("SECKILL_DB_URL"));
        String shadow = shadowDatabase.name();
        // a shadow database but the switch turned off: 501
        try (SecondInstance off = SecondInstance.start(stores, db, "seckill.rehearsal.db.url=" + shadowDatabase.url(),
                "seckill.settlement.enabled=false", "seckill.rehearsal.launch.enabled=false")) {
            assertNotAvailable(new SaleFixture(off.base(), db));
        }
        assertThat(here.count("SELECT COUNT(*) FROM " + shadow + ".seckill_activity"), is(0L));

        RealWorldDump before;
        // a shadow database and the switch at its default: launched
        try (SecondInstance on = SecondInstance.start(stores, db, "seckill.rehearsal.db.url=" + shadowDatabase.url(),
                "seckill.settlement.enabled=false")) {
            // the real world with this instance running (its start wrote its own node lease)
            before = RealWorldDump.settled(redis, config);
            SaleFixture sale = new SaleFixture(on.base(), db);
            String body = body();
            HttpResponse<String> launched = launch(sale, "rehearsal-launch-" + real, body);
            assertThat(launched.body(), contract.check(launched).statusCode(), is(201));
            long rehearsal = SaleFixture.number(launched.body(), "activityId");
            assertThat(rehearsal, greaterThanOrEqualTo(World.REHEARSAL_IDS_FROM));
            assertThat(launched.headers().firstValue("Location").orElse("").endsWith("/api/v1/activities/" + rehearsal), is(true));
            // in the shadow ledger, preheated under rh: only
            assertThat(sale.count("SELECT COUNT(*) FROM " + shadow + ".seckill_activity WHERE id = ?", rehearsal), is(1L));
            assertThat(sale.count("SELECT total FROM " + shadow + ".seckill_stock WHERE activity_id = ?", rehearsal), is(5L));
            assertThat(sale.count("SELECT COUNT(*) FROM seckill_activity WHERE id = ?", rehearsal), is(0L));
            assertThat(RealWorldDump.keys(redis, "rh:{a" + rehearsal + ":s" + SKU + ":*").isEmpty(), is(false));
            assertThat(RealWorldDump.keys(redis, "sk:{a" + rehearsal + ":*").isEmpty(), is(true));
            // the same request again: the same rehearsal, replayed
            HttpResponse<String> again = launch(sale, "rehearsal-launch-" + real, body);
            assertThat(again.body(), again.statusCode(), is(201));
            assertThat(SaleFixture.number(again.body(), "activityId"), is(rehearsal));
            assertThat(again.headers().firstValue("Idempotent-Replayed").orElse(""), is("true"));

            // a real activity is never deleted
            HttpResponse<String> refused = contract.check(delete(sale, real));
            assertThat(refused.body(), refused.statusCode(), is(405));
            assertThat(SaleFixture.field(refused.body(), "code"), is("REAL_ACTIVITY_NOT_DELETABLE"));
            assertThat(here.count("SELECT COUNT(*) FROM seckill_activity WHERE id = ?", real), is(1L));
            // without the admin token: refused as every admin route
            assertThat(sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/activities/" + rehearsal))
                    .DELETE()).statusCode(), is(401));

            // deleted completely, and again: nothing left, still 204
            assertThat(contract.check(delete(sale, rehearsal)).statusCode(), is(204));
            assertThat(RealWorldDump.keys(redis, "rh:{a" + rehearsal + ":*").isEmpty(), is(true));
            for (String table : List.of("seckill_activity WHERE id = ?", "seckill_stock WHERE activity_id = ?",
                    "seckill_activity_request WHERE activity_id = ?")) {
                assertThat(table, sale.count("SELECT COUNT(*) FROM " + shadow + "." + table, rehearsal), is(0L));
            }
            assertThat(delete(sale, rehearsal).statusCode(), is(204));
            RealWorldDump.of(redis, config).assertUnchangedSince(before);
        }
        assertThat(RealWorldDump.of(redis, config).tables(), is(before.tables()));
    }

    private void assertNotAvailable(SaleFixture sale) {
        HttpResponse<String> refused = seckill.system.ServedContract.of(target).check(launch(sale, null, body()));
        assertThat(refused.body(), refused.statusCode(), is(501));
        assertThat(SaleFixture.field(refused.body(), "code"), is("REHEARSAL_NOT_AVAILABLE"));
    }

    static String body() {
        return """
                {"name":"rehearsal launch","startsAt":"%s","endsAt":"%s","rehearsal":true,
                 "skus":[{"skuId":%d,"stock":5}]}""".formatted(Instant.now().minusSeconds(5),
                Instant.now().plusSeconds(600), SKU);
    }

    static HttpResponse<String> launch(SaleFixture sale, String idempotencyKey, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/activities"))
                .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (idempotencyKey != null) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        return sale.send(request);
    }

    static HttpResponse<String> delete(SaleFixture sale, long activity) {
        return sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/activities/" + activity))
                .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN).DELETE());
    }
}
