package seckill.system.faults;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import seckill.admission.api.Admission;
import seckill.reservation.api.ReservationOutcome;
import seckill.reservation.api.ReserveStock;
import seckill.reservation.api.Reserving;
import seckill.settlement.api.Reconciliation;
import seckill.settlement.api.SkuReconciliation;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;

/**
 * Reconciliation during a sustained sale: buyers keep reserving on two SKUs (one over three
 * buckets) while the workers order them and reconciliation runs back to back. In-flight work is
 * never an alarm, and readiness never goes DOWN for it; once the sale is quiet every SKU is CLEAN.
 */
@AddConfig(key = "seckill.settlement.reconcile-seconds", value = "1")
class ReconciliationUnderLoadTest extends ServiceTest {

    private static final Duration SALE = Duration.ofSeconds(8);

    @Inject
    Reconciliation reconciliation;

    @Inject
    Reserving reserving;

    @Inject
    Admission admission;

    @Test
    void inFlightWorkIsNeverAnAlarmAndReadinessStaysUp() throws Exception {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        String json = """
                {"name":"sustained","startsAt":"%s","endsAt":"%s",
                 "skus":[{"skuId":1,"stock":500000,"perUserLimit":1},
                         {"skuId":2,"stock":500000,"perUserLimit":1,"buckets":3}]}""".formatted(
                Instant.now().minusSeconds(5), Instant.now().plusSeconds(600));
        HttpResponse<String> created = sale.createActivity(json, SaleFixture.ADMIN_TOKEN);
        assertThat(created.body(), created.statusCode(), is(201));
        long activity = SaleFixture.number(created.body(), "activityId");

        AtomicBoolean selling = new AtomicBoolean(true);
        AtomicLong reserved = new AtomicLong();
        AtomicLong nextBuyer = new AtomicLong(activity * 10_000_000L);
        List<String> alarms = new CopyOnWriteArrayList<>();
        List<String> judged = new CopyOnWriteArrayList<>();
        List<String> notReady = new CopyOnWriteArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> buyers = new ArrayList<>();
            for (int c = 0; c < 16; c++) {
                buyers.add(pool.submit(() -> {
                    while (selling.get()) {
                        long user = nextBuyer.incrementAndGet();
                        if (sale.purchase(activity, user, 1 + user % 2, 1, "r" + user).statusCode() == 202) {
                            reserved.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            Future<?> reconciler = pool.submit(() -> {
                while (selling.get()) {
                    for (SkuReconciliation result : reconciliation.reconcile(activity)) {
                        judged.add(result.state());
                        if (result.alarming()) {
                            alarms.add(result.state() + " sku " + result.skuId() + ": " + result.detail());
                        }
                    }
                }
                return null;
            });
            Future<?> probe = pool.submit(() -> {
                while (selling.get()) {
                    HttpResponse<String> ready = sale.get("/health/ready", null);
                    if (ready.statusCode() != 200) {
                        notReady.add(ready.body());
                    }
                    Thread.sleep(200);
                }
                return null;
            });
            Thread.sleep(SALE);
            selling.set(false);
            for (Future<?> f : buyers) {
                f.get();
            }
            reconciler.get();
            probe.get();
        }
        assertThat("the sale ran", reserved.get(), greaterThan(500L));
        assertThat("reconciliation ran during the sale", judged.size(), greaterThan(4));
        assertThat(alarms, empty());
        assertThat(notReady, empty());

        SaleFixture.await("every reservation ordered", Duration.ofSeconds(60), () -> sale.orders(activity) == reserved.get());
        List<SkuReconciliation> quiet = reconciliation.reconcile(activity);
        assertThat(quiet.stream().map(r -> r.state() + " " + r.detail()).toList(), everyItem(is("CLEAN null")));
    }

    @Test
    void anInstanceHaltedInDoubtResumesWhileAnotherKeepsSelling() throws Exception {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createBucketedActivity(3, 500_000, 3);
        AtomicBoolean selling = new AtomicBoolean(true);
        AtomicLong reserved = new AtomicLong();
        AtomicLong nextBuyer = new AtomicLong(activity * 10_000_000L);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> otherInstance = new ArrayList<>();
            for (int c = 0; c < 8; c++) {
                // another instance's purchases: straight into the reservation scripts, never halted here
                otherInstance.add(pool.submit(() -> {
                    while (selling.get()) {
                        long user = nextBuyer.incrementAndGet();
                        if (reserving.reserve(new ReserveStock(activity, 3, 3, user, 1, "o" + user))
                                instanceof ReservationOutcome.Reserved) {
                            reserved.incrementAndGet();
                        }
                        // a sale the ordering workers keep up with (about 300/s in all): unbounded, the
                        // events in flight outgrow what one reconciliation counts on a slow machine, and
                        // the resume waits for the backlog instead of judging it
                        Thread.sleep(25);
                    }
                    return null;
                }));
            }
            try {
                SaleFixture.await("the other instance sells", Duration.ofSeconds(10), () -> reserved.get() > 200);
                admission.halt(seckill.admission.api.HaltReason.RESERVATION_STORE_IN_DOUBT);
                long atHalt = reserved.get();
                SaleFixture.await("this instance resumes by itself", Duration.ofSeconds(30),
                        () -> admission.haltedBecause().isEmpty());
                assertThat("the other instance kept selling until the resume", reserved.get(), greaterThan(atHalt + 100));
            } finally {
                selling.set(false);
                admission.resume();
            }
            for (Future<?> f : otherInstance) {
                f.get();
            }
        }
        SaleFixture.await("every reservation ordered", Duration.ofSeconds(60), () -> sale.orders(activity) == reserved.get());
        assertThat(reconciliation.reconcile(activity).getFirst().state(), is("CLEAN"));
    }
}
