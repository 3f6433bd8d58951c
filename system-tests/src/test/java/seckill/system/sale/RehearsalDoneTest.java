package seckill.system.sale;

import java.net.http.HttpResponse;
import java.time.Duration;
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
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/**
 * The done criterion of shadow sales (issue #34, docs/rehearsal.md "Proving it"): a rehearsal run against two
 * running instances sharing Redis, the real database and a shadow database. It is launched through the admin
 * route of one, bought through the purchase route of both with the edge's signed mark, and ordered into the
 * shadow tables ({@code R} order numbers); a purchase without the mark is refused as if it did not exist (404),
 * a marked purchase of a real activity is refused (403) and touches nothing. {@code DELETE} then purges it: no
 * {@code rh:} key of it and no shadow row of it is left. Every real key and row is dumped before and after
 * ({@link RealWorldDump}) and found equal.
 * <p>
 * The real world is kept quiet meanwhile (a real sale, a timeout sweep or a reconciliation pass would change
 * real rows by itself): the real settlement is off here and on both instances, the rehearsals' settlement on
 * ({@code seckill.rehearsal.settlement.enabled}), as a rehearsal needs.
 */
@AddConfig(key = "seckill.settlement.enabled", value = "false")
class RehearsalDoneTest extends ServiceTest {

    private static final long SKU = 3406;
    private static final long BUYER = 340_601;

    @Inject
    DevServers devServers;

    @Test
    void aRehearsalOnTwoInstancesLeavesTheRealWorldAsItWasAndIsPurgedCompletely() throws Exception {
        SaleFixture here = new SaleFixture(target.getUri(), db);
        // a real sale with an order, so the dump holds keys and rows of every kind a sale has
        long real = here.createOpenActivity(SKU, 5, 1);
        assertThat(here.purchaseRetrying(real, BUYER + 10, SKU, 1, "done-real-1").statusCode(), is(202));
        SaleFixture.await("the real order", Duration.ofSeconds(30), () -> here.orders(real) == 1);
        SaleFixture.await("the real order's event acknowledged", Duration.ofSeconds(30),
                () -> redis.xpending("sk:{a" + real + ":s" + SKU + ":b0}:events", "ordering").getTotal() == 0);

        Map<String, String> stores = SecondInstance.storesOf(config, devServers);
        ShadowDatabase shadowDatabase = ShadowDatabase.fresh(db, stores.get("SECKILL_DB_URL"));
        String shadow = shadowDatabase.name();
        deleteRehearsalKeys();
        // the launch at its default (on, since halt per world): only the shadow database is configured for rehearsals
        String[] settings = {"seckill.rehearsal.db.url=" + shadowDatabase.url(),
                "seckill.settlement.enabled=false", "seckill.rehearsal.settlement.enabled=true",
                "seckill.admission.token-required=false", "seckill.rehearsal.edge-key=" + EdgeMarks.KEY};
        try (SecondInstance first = SecondInstance.start(stores, db, settings);
             SecondInstance second = SecondInstance.start(stores, db, settings)) {
            SaleFixture one = new SaleFixture(first.base(), db);
            SaleFixture two = new SaleFixture(second.base(), db);
            // the real world with both instances running (each start wrote its own node lease)
            RealWorldDump before = RealWorldDump.settled(redis, config);
            assertThat(before.keys().keySet().stream().anyMatch(k -> k.contains("a" + real + ":")), is(true));
            assertThat(before.tables().get("seckill_order").isEmpty(), is(false));

            // launched through the admin route of the first
            HttpResponse<String> launched = RehearsalLaunchTest.launch(one, "done-" + real, RehearsalLaunchTest.body()
                    .replace("\"skuId\":3405", "\"skuId\":" + SKU));
            assertThat(launched.body(), launched.statusCode(), is(201));
            long rehearsal = SaleFixture.number(launched.body(), "activityId");
            assertThat(rehearsal, greaterThanOrEqualTo(World.REHEARSAL_IDS_FROM));

            // without the mark: as if it did not exist, on either instance
            assertThat(one.purchase(rehearsal, BUYER, SKU, 1, "done-unmarked-1").statusCode(), is(404));
            assertThat(two.purchase(rehearsal, BUYER, SKU, 1, "done-unmarked-2").statusCode(), is(404));
            // the mark on a real activity: refused, nothing read or written
            HttpResponse<String> markedReal = one.markedByTheEdge(real, BUYER).purchase(real, BUYER, SKU, 1, "done-marked-real");
            assertThat(markedReal.body(), markedReal.statusCode(), is(403));
            assertThat(SaleFixture.field(markedReal.body(), "code"), is("REHEARSAL_MARK_ON_REAL_ACTIVITY"));

            // bought on both instances with the edge's mark
            HttpResponse<String> boughtOnOne = one.markedByTheEdge(rehearsal, BUYER)
                    .purchaseRetrying(rehearsal, BUYER, SKU, 1, "done-1");
            assertThat(boughtOnOne.body(), boughtOnOne.statusCode(), is(202));
            HttpResponse<String> boughtOnTwo = two.markedByTheEdge(rehearsal, BUYER + 1)
                    .purchaseRetrying(rehearsal, BUYER + 1, SKU, 1, "done-2");
            assertThat(boughtOnTwo.body(), boughtOnTwo.statusCode(), is(202));
            List<String> reservations = List.of(SaleFixture.field(boughtOnOne.body(), "reservationId"),
                    SaleFixture.field(boughtOnTwo.body(), "reservationId"));
            reservations.forEach(r -> assertThat(r, startsWith(rehearsal + "-")));

            // ordered into the shadow tables, R numbers
            SaleFixture.await("both rehearsal orders in the shadow ledger", Duration.ofSeconds(40), () -> one.count(
                    "SELECT COUNT(*) FROM " + shadow + ".seckill_order WHERE activity_id = ?", rehearsal) == 2);
            assertThat(one.count("SELECT COUNT(*) FROM " + shadow + ".seckill_order WHERE activity_id = ? AND order_no LIKE 'R%'",
                    rehearsal), is(2L));
            assertThat(one.count("SELECT available FROM " + shadow + ".seckill_stock WHERE activity_id = ?", rehearsal), is(3L));
            for (String reservation : reservations) {
                HttpResponse<String> status = two.markedByTheEdge(rehearsal, reservation.equals(reservations.get(0)) ? BUYER
                        : BUYER + 1).get("/api/v1/reservations/" + reservation,
                        Long.toString(reservation.equals(reservations.get(0)) ? BUYER : BUYER + 1));
                assertThat(status.body(), status.statusCode(), is(200));
                assertThat(SaleFixture.field(status.body(), "orderNo"), startsWith("R"));
            }
            SaleFixture.await("the rehearsal's events acknowledged", Duration.ofSeconds(30), () -> RealWorldDump
                    .keys(redis, "rh:{a" + rehearsal + ":s" + SKU + ":b*}:events").keySet().stream()
                    .allMatch(stream -> redis.xpending(stream, "ordering").getTotal() == 0));

            // every real key and row as it was
            RealWorldDump.of(redis, config).assertUnchangedSince(before);

            // deleted through the second instance: no rh: key of it and no shadow row of it left
            assertThat(RealWorldDump.keys(redis, "rh:{a" + rehearsal + ":*").isEmpty(), is(false));
            assertThat(RehearsalLaunchTest.delete(two, rehearsal).statusCode(), is(204));
            assertThat(rehearsalKeys(rehearsal), is(List.of()));
            assertThat(redis.zrange("rh:streams", 0, -1).stream().anyMatch(s -> s.contains("{a" + rehearsal + ":")),
                    is(false));
            for (String table : List.of("seckill_activity WHERE id = ?", "seckill_stock WHERE activity_id = ?",
                    "seckill_order WHERE activity_id = ?", "seckill_stock_log WHERE activity_id = ?",
                    "seckill_reservation_failure WHERE activity_id = ?", "stock_sync_outbox WHERE activity_id = ?",
                    "seckill_reconciliation WHERE activity_id = ?", "seckill_activity_request WHERE activity_id = ?",
                    "seckill_line_turn_left WHERE activity_id = ?")) {
                assertThat(table, one.count("SELECT COUNT(*) FROM " + shadow + "." + table, rehearsal), is(0L));
            }
            for (String table : List.of("seckill_order_number", "seckill_reservation_rejection")) {
                assertThat(table, one.count("SELECT COUNT(*) FROM " + shadow + "." + table
                        + " WHERE reservation_id LIKE CONCAT(?, '-%')", Long.toString(rehearsal)), is(0L));
            }
            assertThat(one.count("SELECT COUNT(*) FROM " + shadow + ".seckill_payment"), is(0L));
            // a purchase of the purged rehearsal finds nothing to buy; the purge is idempotent
            assertThat(one.markedByTheEdge(rehearsal, BUYER + 2).purchase(rehearsal, BUYER + 2, SKU, 1, "done-after")
                    .statusCode() == 202, is(false));
            assertThat(RehearsalLaunchTest.delete(one, rehearsal).statusCode(), is(204));
            assertThat(rehearsalKeys(rehearsal), is(List.of()));

            RealWorldDump.of(redis, config).assertUnchangedSince(before);
        } finally {
            deleteRehearsalKeys();
        }
    }

    /** Every rh: key naming the rehearsal's id, whatever its kind (stock, line, tokens, challenges, rate leases). */
    private List<String> rehearsalKeys(long rehearsal) {
        return RealWorldDump.keys(redis, "rh:*").keySet().stream()
                .filter(k -> k.matches(".*a" + rehearsal + "[^0-9].*")).toList();
    }

    /** Every rh: key (only rehearsals write them): any an earlier test left. */
    private void deleteRehearsalKeys() {
        RealWorldDump.keys(redis, "rh:*").keySet().forEach(redis::del);
    }
}
