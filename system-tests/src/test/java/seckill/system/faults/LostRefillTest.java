package seckill.system.faults;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import seckill.drill.api.InvariantCheck;
import seckill.settlement.api.Reconciliation;
import seckill.settlement.api.SettlementSweeps;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/**
 * A refill the ledger marked applied but Redis no longer holds (a failover that lost it, written here
 * by hand: its id out of the refilled set, its unit out of the stock and the refilled counter, so the
 * bucket still balances) is found by reconciliation, which compares the ledger's applied refills with
 * what Redis holds, and applied again by its reservation id: the unit is on sale again and sold.
 */
@AddConfig(key = "seckill.settlement.enabled", value = "false")
class LostRefillTest extends ServiceTest {

    private static final long SKU = 7331;

    @Inject
    SettlementSweeps sweeps;

    @Inject
    Reconciliation reconciliation;

    @Test
    void reconciliationFindsALostRefillAndAppliesItAgain() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createOpenActivity(SKU, 1, 1);
        long first = activity * 1000 + 1;
        long second = activity * 1000 + 2;
        String stockKey = InvariantCheck.bucketKey(activity, SKU, 0, 1, "stock");
        String refilled = InvariantCheck.bucketKey(activity, SKU, 0, 1, "refilled");
        String refilledUnits = InvariantCheck.bucketKey(activity, SKU, 0, 1, "refilled-units");

        assertThat(sale.purchase(activity, first, SKU, 1, "r-first").statusCode(), is(202));
        SaleFixture.await("the first buyer ordered", Duration.ofSeconds(30), () -> sale.orders(activity) == 1);
        expire(activity, first);
        String reservation = sale.column("SELECT reservation_id FROM stock_sync_outbox WHERE activity_id = ? AND status = 1",
                activity).getFirst();
        assertThat(redis.get(stockKey), is("1"));

        // the refill is lost as a failover would lose it: every effect of it at once
        redis.srem(refilled, reservation);
        redis.decrBy(stockKey, 1);
        redis.decrBy(refilledUnits, 1);

        var judged = reconciliation.reconcile(activity);
        assertThat("reconciliation put the lost refill back in the outbox; judged " + judged + ", outbox status "
                + sale.column("SELECT status FROM stock_sync_outbox WHERE activity_id = ?", activity),
                sale.count("SELECT COUNT(*) FROM stock_sync_outbox WHERE activity_id = ? AND status = 0", activity), is(1L));
        sweeps.relayRefills();
        assertThat("judged " + judged + "; refilled set " + redis.smembers(refilled), redis.get(stockKey), is("1"));
        assertThat(redis.sismember(refilled, reservation), is(true));
        assertThat(redis.get(refilledUnits), is("1"));
        assertThat(sale.count("SELECT COUNT(*) FROM stock_sync_outbox WHERE activity_id = ? AND status = 1", activity),
                is(1L));
        // applied again once, by its id: another pass changes nothing
        reconciliation.reconcile(activity);
        sweeps.relayRefills();
        assertThat(redis.get(stockKey), is("1"));

        assertThat("the unit is on sale again", sale.purchase(activity, second, SKU, 1, "r-second").statusCode(), is(202));
        SaleFixture.await("the second buyer ordered", Duration.ofSeconds(30), () -> sale.count(
                "SELECT COUNT(*) FROM seckill_order WHERE activity_id = ? AND user_id = ? AND status = 0",
                activity, second) == 1);
        assertThat(reconciliation.reconcile(activity).stream().map(r -> r.state() + " " + r.detail()).toList(),
                everyItem(startsWith("CLEAN")));
        // one live order for the one unit (InvariantCheck counts the expired order too, so it is not asked here)
        assertThat(sale.count("SELECT COUNT(*) FROM seckill_order WHERE activity_id = ? AND status <> 2", activity), is(1L));
    }

    /**
     * A bucket Redis lost as a whole is put back from the ledger with the ids of its applied refills:
     * a refill lost after that is the only one applied again, never one the restore already counted.
     */
    @Test
    void afterARestoreOnlyTheRefillLostSinceIsAppliedAgain() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long sku = SKU + 1;
        long activity = sale.createOpenActivity(sku, 2, 1);
        long first = activity * 1000 + 1;
        long second = activity * 1000 + 2;
        String stockKey = InvariantCheck.bucketKey(activity, sku, 0, 1, "stock");
        String refilled = InvariantCheck.bucketKey(activity, sku, 0, 1, "refilled");
        String refilledUnits = InvariantCheck.bucketKey(activity, sku, 0, 1, "refilled-units");
        assertThat(sale.purchase(activity, first, sku, 1, "r-first").statusCode(), is(202));
        assertThat(sale.purchase(activity, second, sku, 1, "r-second").statusCode(), is(202));
        SaleFixture.await("both ordered", Duration.ofSeconds(30), () -> sale.orders(activity) == 2);
        expire(activity, first);
        String firstRefill = sale.column("SELECT reservation_id FROM stock_sync_outbox WHERE activity_id = ? AND status = 1",
                activity).getFirst();
        SaleFixture.await("the stream settled", Duration.ofSeconds(30),
                () -> reconciliation.reconcile(activity).getFirst().clean());

        for (String suffix : List.of("stock", "buyers", "events", "refilled", "refilled-units", "served", "preheat",
                "dead")) {
            redis.del(InvariantCheck.bucketKey(activity, sku, 0, 1, suffix));
        }
        HttpResponse<String> preheated = sale.send(HttpRequest.newBuilder(
                        sale.base.resolve("/api/v1/admin/activities/" + activity + "/preheat"))
                .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN).POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(preheated.body(), containsString("RESTORED"));
        assertThat(redis.get(stockKey), is("1"));
        assertThat("the restore knows the refill applied", redis.sismember(refilled, firstRefill), is(true));

        expire(activity, second);
        assertThat(redis.get(stockKey), is("2"));
        String secondRefill = sale.column("""
                SELECT reservation_id FROM stock_sync_outbox WHERE activity_id = ? AND reservation_id <> ?""",
                activity, firstRefill).getFirst();
        redis.srem(refilled, secondRefill);
        redis.decrBy(stockKey, 1);
        redis.decrBy(refilledUnits, 1);

        var judged = reconciliation.reconcile(activity);
        sweeps.relayRefills();
        assertThat("judged " + judged, redis.get(stockKey), is("2"));
        assertThat(redis.smembers(refilled), is(java.util.Set.of(firstRefill, secondRefill)));
        assertThat(reconciliation.reconcile(activity).stream().map(r -> r.state() + " " + r.detail()).toList(),
                everyItem(startsWith("CLEAN")));
    }

    private void expire(long activity, long user) {
        db.execute().dml("UPDATE seckill_order SET expire_at = ? WHERE activity_id = ? AND user_id = ?",
                LocalDateTime.now(ZoneOffset.UTC).minusMinutes(1), activity, user);
        // other tests' overdue orders in the same database expire too: only this one is looked at
        sweeps.expireOverdue();
        assertThat(sale().count("SELECT status FROM seckill_order WHERE activity_id = ? AND user_id = ?", activity, user),
                is(2L));
        sweeps.relayRefills();
    }

    private SaleFixture sale() {
        return new SaleFixture(target.getUri(), db);
    }
}
