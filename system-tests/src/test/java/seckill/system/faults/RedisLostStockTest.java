package seckill.system.faults;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import seckill.drill.api.InvariantCheck;
import seckill.settlement.api.Reconciliation;
import seckill.settlement.api.SkuReconciliation;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;

/**
 * A half-created activity and a SKU whose stock Redis lost: activity creation is idempotent under
 * an Idempotency-Key and a retry finishes what the first attempt left undone; a lost SKU is
 * NOT_PREHEATED (not a mismatch), and the preheat endpoint puts it back from the ledger so the sale
 * goes on and sells exactly its stock, buyers who hold orders keeping theirs.
 */
class RedisLostStockTest extends ServiceTest {

    private static final List<String> BUCKET_KEYS = List.of("stock", "buyers", "events", "refilled", "refilled-units",
            "served", "preheat", "dead");

    @Inject
    Reconciliation reconciliation;

    @Test
    void aRetriedCreationReturnsTheSameActivityAndFinishesItsPreheat() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        String name = "idempotent " + System.nanoTime();
        String body = activity(name, 7001, 40, 1);
        HttpResponse<String> first = create(sale, body, "key-" + name);
        assertThat(first.body(), first.statusCode(), is(201));
        long activity = idOf(first);
        // as if the first attempt's preheat had failed after the ledger rows were written
        forget(activity, 7001, 1);

        HttpResponse<String> retry = create(sale, body, "key-" + name);
        assertThat(retry.body(), retry.statusCode(), is(201));
        assertThat(idOf(retry), is(activity));
        assertThat(retry.headers().firstValue("Idempotent-Replayed").orElse(""), is("true"));
        assertThat(sale.count("SELECT COUNT(*) FROM seckill_activity WHERE name = ?", name), is(1L));
        assertThat(redis.get(InvariantCheck.bucketKey(activity, 7001, 0, 1, "stock")), is("40"));
        assertThat(sale.purchase(activity, activity * 1000 + 1, 7001, 1, "after-retry").statusCode(), is(202));

        HttpResponse<String> other = create(sale, activity(name + " other", 7001, 40, 1), "key-" + name);
        assertThat(other.body(), other.statusCode(), is(422));
        assertThat(other.body(), containsString("IDEMPOTENCY_KEY_REUSED"));
    }

    @Test
    void aSkuRedisLostIsNotPreheatedThenPutBackFromTheLedgerAndSellsExactlyItsStock() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long sku = 7002;
        int buckets = 3;
        long activity = sale.createBucketedActivity(sku, 60, buckets);
        Map<Long, String> held = new HashMap<>();
        for (int i = 0; i < 20; i++) {
            long user = activity * 1000 + i;
            HttpResponse<String> bought = sale.purchase(activity, user, sku, 1, "first-" + user);
            assertThat(bought.body(), bought.statusCode(), is(202));
            held.put(user, SaleFixture.field(bought.body(), "reservationId"));
        }
        SaleFixture.await("orders", Duration.ofSeconds(30), () -> sale.orders(activity) == 20);
        SaleFixture.await("stream settled", Duration.ofSeconds(30),
                () -> reconciliation.reconcile(activity).getFirst().clean());

        forget(activity, sku, buckets);
        SkuReconciliation lost = reconciliation.reconcile(activity).getFirst();
        assertThat(lost.detail(), lost.state(), is("NOT_PREHEATED"));
        assertThat(sale.get("/health/ready", null).statusCode(), is(200));
        HttpResponse<String> meanwhile = sale.purchase(activity, activity * 1000 + 500, sku, 1, "meanwhile");
        assertThat(meanwhile.body(), meanwhile.statusCode(), is(503));
        assertThat(meanwhile.body(), containsString("NOT_READY"));

        HttpResponse<String> preheated = sale.send(HttpRequest.newBuilder(
                        sale.base.resolve("/api/v1/admin/activities/" + activity + "/preheat"))
                .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN).POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(preheated.body(), preheated.statusCode(), is(200));
        assertThat(preheated.body(), containsString("\"buckets\":[\"RESTORED\",\"RESTORED\",\"RESTORED\"]"));
        SkuReconciliation restored = reconciliation.reconcile(activity).getFirst();
        assertThat(restored.detail(), restored.state(), is("CLEAN"));

        // buyers who hold orders keep them: a second click answers their own reservation
        held.forEach((user, id) -> {
            HttpResponse<String> again = sale.purchase(activity, user, sku, 1, "again-" + user);
            assertThat(again.body(), again.statusCode(), is(200));
            assertThat(SaleFixture.field(again.body(), "reservationId"), is(id));
        });
        int sold = 0;
        for (int i = 100; i < 200; i++) {
            if (sale.purchase(activity, activity * 1000 + i, sku, 1, "after-" + i).statusCode() == 202) {
                sold++;
            }
        }
        assertThat("the rest of the stock, no more", sold, is(40));
        SaleFixture.await("orders", Duration.ofSeconds(30), () -> sale.orders(activity) == 60);
        assertThat(sale.available(activity, sku), is(0L));
        assertThat(InvariantCheck.violations(new InvariantCheck(db, redis).audit(activity)), empty());
        SaleFixture.await("clean", Duration.ofSeconds(30), () -> reconciliation.reconcile(activity).getFirst().clean());
        assertThat(reconciliation.reconcile(activity).stream().map(SkuReconciliation::state).toList(),
                everyItem(is("CLEAN")));
    }

    private void forget(long activity, long sku, int buckets) {
        for (int b = 0; b < buckets; b++) {
            for (String suffix : BUCKET_KEYS) {
                redis.del(InvariantCheck.bucketKey(activity, sku, b, buckets, suffix));
            }
        }
    }

    private static HttpResponse<String> create(SaleFixture sale, String body, String key) {
        return sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/activities"))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN)
                .header("Idempotency-Key", key).POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private static String activity(String name, long sku, long stock, int buckets) {
        return """
                {"name":"%s","startsAt":"%s","endsAt":"%s",
                 "skus":[{"skuId":%d,"stock":%d,"perUserLimit":1,"buckets":%d}]}""".formatted(name,
                Instant.parse("2026-01-01T00:00:00Z"), Instant.parse("2099-01-01T00:00:00Z"), sku, stock, buckets);
    }

    private static long idOf(HttpResponse<String> created) {
        return SaleFixture.number(created.body(), "activityId");
    }
}
