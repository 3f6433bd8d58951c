package seckill.system.faults;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Protocol;
import seckill.admission.api.Admission;
import seckill.drill.api.InvariantCheck;
import seckill.dev.api.DevServers;
import seckill.settlement.api.Reconciliation;
import seckill.system.DatabaseBehindProxy;
import seckill.system.SaleFixture;
import seckill.system.SecondInstance;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;

/**
 * Everything at once, from outside: two instances sell a SKU over three buckets; the second is
 * killed with SIGKILL and restarted, then both lose their database for 20 s (a TCP proxy resets every
 * connection), and Redis is paused for 3 s in the middle of that (with a global rate set, so lease
 * calls meet the pause as well as reservations). Afterwards the instances resume by
 * themselves and sell the rest: the stock is sold exactly, every reservation answered 202 is exactly
 * one order, nothing is failed or dead-lettered, and reconciliation is clean.
 */
@AddConfig(key = "seckill.ordering.reclaim-idle-seconds", value = "3")
// a global rate far above the buyers' pace: every admitted attempt goes through this instance's
// lease of it, so the Redis pause also meets a lease call (doubt there halts sales like the reservation's)
@AddConfig(key = "seckill.admission.global-rate", value = "100000")
class AllFaultsAtOnceTest extends ServiceTest {

    private static final long SKU = 8001;
    private static final long STOCK = 3000;
    private static final Duration DB_OUTAGE = Duration.ofSeconds(20);

    @RegisterExtension
    static final DatabaseBehindProxy DATABASE = new DatabaseBehindProxy();

    @Inject
    DevServers devServers;

    @Inject
    Admission admission;

    @Inject
    Reconciliation reconciliation;

    private SecondInstance second;

    @AfterEach
    void stopSecond() throws Exception {
        if (second != null) {
            second.close();
        }
    }

    @Test
    void theSaleEndsSoundAndSellsEverythingAfterEveryFaultClears() throws Exception {
        SaleFixture sale = new SaleFixture(target.getUri(), DATABASE.direct());
        long activity = sale.createBucketedActivity(SKU, STOCK, 3);
        second = startSecond();
        List<SaleFixture> instances = List.of(sale, new SaleFixture(second.base(), DATABASE.direct()));

        Map<String, Long> reservedBy = new ConcurrentHashMap<>();
        Map<String, AtomicLong> answers = new ConcurrentHashMap<>();
        AtomicLong nextBuyer = new AtomicLong(activity * 1_000_000L);
        AtomicBoolean soldOut = new AtomicBoolean();
        AtomicBoolean buying = new AtomicBoolean(true);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> buyers = new ArrayList<>();
            for (int c = 0; c < 8; c++) {
                buyers.add(pool.submit(() -> {
                    while (buying.get()) {
                        long user = nextBuyer.incrementAndGet();
                        for (SaleFixture instance : instances) {
                            String outcome;
                            try {
                                HttpResponse<String> response = instance.purchase(activity, user, SKU, 1, "all-" + user);
                                outcome = Integer.toString(response.statusCode());
                                if (response.statusCode() == 202) {
                                    reservedBy.put(SaleFixture.field(response.body(), "reservationId"), user);
                                } else if (response.statusCode() == 410) {
                                    soldOut.set(true);
                                }
                            } catch (RuntimeException e) {
                                // the killed instance refuses connections until its restart
                                outcome = "error";
                            }
                            answers.computeIfAbsent(outcome, o -> new AtomicLong()).incrementAndGet();
                        }
                        // keep the sale going through the faults: a modest, steady pace
                        Thread.sleep(20);
                    }
                    return null;
                }));
            }
            try {
                SaleFixture.await("the sale is under way", Duration.ofSeconds(20), () -> reservedBy.size() >= 300);
                second.kill();
                second.restart(DATABASE.direct());

                DATABASE.proxy().cut();
                long cutAt = System.nanoTime();
                Thread.sleep(5_000);
                redis.sendCommand(Protocol.Command.CLIENT, "PAUSE", "3000");
                Thread.sleep(Math.max(0, DB_OUTAGE.toMillis() - Duration.ofNanos(System.nanoTime() - cutAt).toMillis()));
                DATABASE.proxy().restore();

                SaleFixture.await("both instances sell again and sell out", Duration.ofSeconds(120), soldOut::get);
            } finally {
                buying.set(false);
                for (Future<?> f : buyers) {
                    f.get();
                }
            }
        }

        SaleFixture.await("every reservation ordered", Duration.ofSeconds(120), () -> sale.orders(activity) == STOCK);
        assertThat(answers.toString(), reservedBy.size(), is((int) STOCK));
        List<String> ordered = sale.column("SELECT reservation_id FROM seckill_order WHERE activity_id = ?", activity);
        assertThat(Set.copyOf(ordered), is(reservedBy.keySet()));
        assertThat(sale.count("SELECT COUNT(*) FROM seckill_reservation_failure WHERE activity_id = ?", activity), is(0L));
        assertThat(sale.count("SELECT COUNT(DISTINCT user_id) FROM seckill_order WHERE activity_id = ?", activity),
                is(STOCK));
        assertThat(sale.available(activity, SKU), is(0L));
        assertThat(InvariantCheck.violations(new InvariantCheck(DATABASE.direct(), redis).audit(activity)), empty());
        SaleFixture.await("this instance resumed", Duration.ofSeconds(60), () -> admission.haltedBecause().isEmpty());
        SaleFixture.await("clean", Duration.ofSeconds(60), () -> reconciliation.reconcile(activity).getFirst().clean());
        assertThat(reconciliation.reconcile(activity).stream().map(r -> r.state()).toList(), everyItem(is("CLEAN")));
    }

    private SecondInstance startSecond() throws Exception {
        // this service's database URL is the proxy's (a system property), so the second one's goes through it too
        Map<String, String> stores = SecondInstance.storesOf(config, devServers);
        return SecondInstance.start(stores, DATABASE.direct(), "seckill.admission.token-required=false",
                "seckill.admission.buyer-rate=100000", "seckill.admission.global-rate=100000",
                "seckill.ordering.reclaim-idle-seconds=3");
    }
}
