package seckill.system.sale;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import seckill.drill.api.InvariantCheck;
import seckill.settlement.api.Reconciliation;
import seckill.settlement.api.SkuReconciliation;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/**
 * A SKU split over four buckets: every unit is sold even when all buyers share one home bucket
 * (the others must give their units), each buyer holds at most one, and nothing is oversold.
 */
class BucketsTest extends ServiceTest {

    private static final long SKU = 3001;
    private static final int BUCKETS = 4;

    @Inject
    Reconciliation reconciliation;

    @Test
    void buyersOfOneHomeBucketStillBuyEveryUnitOfAllBuckets() throws Exception {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createBucketedActivity(SKU, 100, BUCKETS);
        for (int b = 0; b < BUCKETS; b++) {
            assertThat(redis.get(InvariantCheck.bucketKey(activity, SKU, b, BUCKETS, "stock")), is("25"));
        }

        // 400 buyers who all live in the same home bucket, each clicking twice at once
        List<Long> users = new ArrayList<>();
        for (long u = activity * 1_000_000; users.size() < 400; u++) {
            if (SaleFixture.homeBucket(u, BUCKETS) == 0) {
                users.add(u);
            }
        }
        AtomicInteger reserved = new AtomicInteger();
        Set<Long> winners = ConcurrentHashMap.newKeySet();
        CountDownLatch gate = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> all = new ArrayList<>();
            for (long user : users) {
                for (int click = 0; click < 2; click++) {
                    int n = click;
                    all.add(pool.submit(() -> {
                        gate.await();
                        HttpResponse<String> response = sale.purchase(activity, user, SKU, 1, "b-" + user + "-" + n);
                        // a client honours 503 BUSY (nothing happened) by retrying after a moment
                        for (int retry = 0; retry < 50 && response.body().contains("\"code\":\"BUSY\""); retry++) {
                            Thread.sleep(100);
                            response = sale.purchase(activity, user, SKU, 1, "b-" + user + "-" + n);
                        }
                        if (response.statusCode() == 202) {
                            reserved.incrementAndGet();
                            assertThat("one unit per buyer", winners.add(user), is(true));
                        }
                        return null;
                    }));
                }
            }
            gate.countDown();
            for (Future<?> f : all) {
                f.get();
            }
        }
        assertThat(reserved.get(), is(100));
        for (int b = 0; b < BUCKETS; b++) {
            assertThat(redis.get(InvariantCheck.bucketKey(activity, SKU, b, BUCKETS, "stock")), is("0"));
        }
        SaleFixture.await("orders", Duration.ofSeconds(60), () -> sale.orders(activity) == 100);
        assertThat(sale.available(activity, SKU), is(0L));
        assertThat(sale.count("SELECT COUNT(DISTINCT user_id) FROM seckill_order WHERE activity_id = ?", activity),
                is(100L));
        assertThat(InvariantCheck.violations(new InvariantCheck(db, redis).audit(activity)), empty());
        // a buyer served by another bucket still sees their reservation
        String anyId = sale.column("SELECT reservation_id FROM seckill_order WHERE activity_id = ? AND reservation_id NOT LIKE ?",
                activity, activity + "-" + SKU + "-0-%").getFirst();
        String owner = sale.column("SELECT user_id FROM seckill_order WHERE reservation_id = ?", anyId).getFirst();
        assertThat(sale.get("/api/v1/reservations/" + anyId, owner).body().contains("ORDERED"), is(true));

        SkuReconciliation reconciled = reconciliation.reconcile(activity).getFirst();
        assertThat(reconciled.detail(), reconciled.state(), is("CLEAN"));
        long reservedOverBuckets = 0;
        for (int b = 0; b < BUCKETS; b++) {
            assertThat(reconciled.figures().get("b" + b + ".reserved"), is(25L));
            assertThat(reconciled.figures().get("b" + b + ".accounted"), is(25L));
            reservedOverBuckets += reconciled.figures().get("b" + b + ".reserved");
        }
        assertThat(reservedOverBuckets, is(reconciled.figures().get("redisReserved")));
    }

    @Test
    void reconciliationNamesTheBucketWhoseUnitsMovedEvenWhenTheSkuBalances() {
        long activity = new SaleFixture(target.getUri(), db).createBucketedActivity(SKU, 100, BUCKETS);
        assertThat(reconciliation.reconcile(activity).getFirst().state(), is("CLEAN"));

        // a unit moved from bucket 1 to bucket 2 behind the ledger's back: the SKU's sum is unchanged
        String from = InvariantCheck.bucketKey(activity, SKU, 1, BUCKETS, "stock");
        String to = InvariantCheck.bucketKey(activity, SKU, 2, BUCKETS, "stock");
        redis.decr(from);
        redis.incr(to);
        try {
            SkuReconciliation result = reconciliation.reconcile(activity).getFirst();
            assertThat(result.state(), is("MISMATCH"));
            assertThat(result.detail(), startsWith("bucket 1:"));
            assertThat(result.figures().get("redisReserved"), is(0L));
            assertThat(result.figures().get("b1.reserved"), is(1L));
            assertThat(result.figures().get("b2.reserved"), is(-1L));
        } finally {
            redis.incr(from);
            redis.decr(to);
        }
        // put right, it is clean again (and no alarm is left for the other tests)
        assertThat(reconciliation.reconcile(activity).getFirst().state(), is("CLEAN"));
    }

}
