package seckill.system.faults;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import seckill.drill.api.Drill;
import seckill.drill.api.DrillOptions;
import seckill.drill.api.InvariantCheck;
import seckill.ledger.api.OrderingSwitch;
import seckill.system.DatabaseBehindProxy;
import seckill.system.SaleFixture;
import seckill.system.ServedContract;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.notNullValue;

/**
 * The service's database connections are cut by a TCP proxy while buyers reserve: purchases go on
 * being answered from Redis, reads answer 503 with Retry-After, readiness says why, and when the
 * database is back every reservation answered 202 is exactly one order; none is failed or
 * dead-lettered, however many times its event was handed out meanwhile.
 */
@AddConfig(key = "seckill.ordering.reclaim-idle-seconds", value = "2")
@AddConfig(key = "seckill.ordering.max-deliveries", value = "3")
@AddConfig(key = "seckill.ordering.max-backoff-millis", value = "1000")
class DatabaseOutageTest extends ServiceTest {

    private static final long SKU = 6001;
    private static final long STOCK = 200;
    private static final int BUYERS = 300;
    /** Long enough for every event to be handed out more than max-deliveries times on the old code. */
    private static final Duration OUTAGE = Duration.ofSeconds(12);

    @RegisterExtension
    static final DatabaseBehindProxy DATABASE = new DatabaseBehindProxy();

    @Inject
    OrderingSwitch ordering;

    @Test
    void everyBuyerWhoWonDuringAnOutageGetsExactlyOneOrder() throws Exception {
        // verdicts are read from the database directly, not through the proxy the service sits behind
        SaleFixture sale = new SaleFixture(target.getUri(), DATABASE.direct());
        long activity = sale.createOpenActivity(SKU, STOCK, 1);

        DATABASE.proxy().cut();
        long cutAt = System.nanoTime();
        java.util.Map<String, Long> buyerOf = new ConcurrentHashMap<>();
        List<Integer> statuses = java.util.Collections.synchronizedList(new ArrayList<>());
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> all = new ArrayList<>();
            for (int i = 0; i < BUYERS; i++) {
                long user = activity * 10_000 + i;
                all.add(pool.submit(() -> {
                    HttpResponse<String> response = sale.purchase(activity, user, SKU, 1, "outage-" + user);
                    statuses.add(response.statusCode());
                    if (response.statusCode() == 202) {
                        buyerOf.put(SaleFixture.field(response.body(), "reservationId"), user);
                    }
                    return null;
                }));
            }
            for (Future<?> f : all) {
                f.get();
            }
        }
        Set<String> reserved = buyerOf.keySet();
        // Redis judged every purchase while the database was away: the stock sold out exactly
        assertThat(statuses.toString(), reserved, hasSize((int) STOCK));

        String someId = reserved.iterator().next();
        String holder = Long.toString(buyerOf.get(someId));
        // what a buyer and the load balancer see during the outage; judged after the ledger's outcome below
        HttpResponse<String> read = sale.get("/api/v1/reservations/" + someId, holder);
        HttpResponse<String> ready = sale.get("/health/ready", null);

        long left = OUTAGE.toMillis() - Duration.ofNanos(System.nanoTime() - cutAt).toMillis();
        if (left > 0) {
            // the fault lasts a set time; there is no condition to wait for
            Thread.sleep(left);
        }
        DATABASE.proxy().restore();

        SaleFixture.await("every reservation settled", Duration.ofSeconds(60), () -> sale.orders(activity)
                + sale.count("SELECT COUNT(*) FROM seckill_reservation_failure WHERE activity_id = ?", activity) >= STOCK);
        assertThat("no buyer who won is failed", sale.count(
                "SELECT COUNT(*) FROM seckill_reservation_failure WHERE activity_id = ?", activity), is(0L));
        List<String> ordered = sale.column("SELECT reservation_id FROM seckill_order WHERE activity_id = ?", activity);
        assertThat(ordered, hasSize((int) STOCK));
        assertThat(Set.copyOf(ordered), is(reserved));
        assertThat(sale.count("SELECT COUNT(*) FROM stock_sync_outbox WHERE activity_id = ?", activity), is(0L));
        assertThat(sale.available(activity, SKU), is(0L));
        assertThat(redis.xlen(InvariantCheck.bucketKey(activity, SKU, 0, 1, "dead")), is(0L));
        assertThat(sale.get("/api/v1/reservations/" + someId, holder).body(), containsString("\"status\":\"ORDERED\""));

        assertThat(read.body(), read.statusCode(), is(503));
        assertThat(read.headers().firstValue("Retry-After").orElse(null), notNullValue());
        assertThat(read.body(), containsString("DATABASE_UNAVAILABLE"));
        ServedContract.of(target).check(read);
        assertThat("the stream keeps the sale going, the instance stays in the load balancer: " + ready.body(),
                ready.statusCode(), is(200));
        assertThat(ready.body(), containsString("\"ledger\":\"UNAVAILABLE\""));
        assertThat("probes get stable words, not the driver's text", ready.body().contains("jdbc:"), is(false));
        SaleFixture.await("readiness clear again", Duration.ofSeconds(20),
                () -> sale.get("/health/ready", null).body().contains("\"ledger\":\"AVAILABLE\""));
    }

    @Test
    void aDrillWithTheDatabaseDownEndsWithEveryInvariantAndNoFailedReservation() throws Exception {
        Path json = Files.createTempFile("drill", ".json");
        DrillOptions options = DrillOptions.parse(new String[] {"--buyers", "1500", "--stock", "500", "--skus", "2",
                "--concurrency", "100", "--fault", "db-down", "--fault-seconds", "8", "--buckets", "3",
                "--json", json.toString(), "--settle-timeout", "60", "--duration", "40"});
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        Drill drill = new Drill(options, target.getUri(), SaleFixture.ADMIN_TOKEN, DATABASE.direct(), redis, ordering,
                new PrintStream(printed, true, StandardCharsets.UTF_8), DATABASE.proxy());
        List<String> violations = drill.run();
        String report = printed.toString(StandardCharsets.UTF_8);
        System.out.println(report);
        assertThat(report, violations, empty());
        assertThat(report, containsString("drill: FAULT database connections cut for 8 s"));
        assertThat(report, containsString("invariants    OK"));
        long activity = SaleFixture.number(Files.readString(json), "activityId");
        SaleFixture sale = new SaleFixture(target.getUri(), DATABASE.direct());
        assertThat(sale.count("SELECT COUNT(*) FROM seckill_reservation_failure WHERE activity_id = ?", activity), is(0L));
        assertThat("every unit sold, each as one order", sale.orders(activity), is(1000L));
    }
}
