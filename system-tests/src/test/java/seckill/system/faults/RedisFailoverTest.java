package seckill.system.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.HostAndPort;
import seckill.drill.api.InvariantCheck;
import seckill.system.SaleFixture;
import seckill.system.SentinelTopology;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * A Redis master killed with SIGKILL in the middle of a sale, behind Sentinel (a master, two replicas
 * and three Sentinels this test starts on loopback, {@link SentinelTopology}). Every reservation answered 202 waited for a replica first, so every
 * one of them becomes exactly one order; the sale halts, follows the failover, reconciles and goes on
 * by itself; the stock is sold exactly, one unit per buyer. All read from the ledger.
 */
@AddConfig(key = "seckill.redis.timeout-millis", value = "1000")
class RedisFailoverTest extends ServiceTest {

    @RegisterExtension
    static final SentinelTopology TOPOLOGY = new SentinelTopology();

    private static final long SKU = 7301;
    private static final int STOCK = 300;
    private static final int BUYERS = 600;

    @Test
    void aMasterKilledMidSaleLosesNoReservationAnswered202() throws Exception {

        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createOpenActivity(SKU, STOCK, 1);
        HostAndPort oldMaster = TOPOLOGY.master();
        long pid = SentinelTopology.processId(oldMaster);

        Map<Long, String> reserved = new ConcurrentHashMap<>();
        Map<Integer, AtomicInteger> finals = new ConcurrentHashMap<>();
        AtomicInteger answered = new AtomicInteger();
        List<Future<?>> buyers = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(24)) {
            for (int i = 1; i <= BUYERS; i++) {
                long user = activity * 1000 + i;
                buyers.add(pool.submit(() -> {
                    var answer = sale.purchaseRetrying(activity, user, SKU, 1, "f-" + user);
                    finals.computeIfAbsent(answer.statusCode(), s -> new AtomicInteger()).incrementAndGet();
                    // a 202/200, or a 410 to a buyer told "in doubt" before who holds a unit (its link shows it)
                    sale.reservationShownBy(answer, user).ifPresent(id -> reserved.put(user, id));
                    answered.incrementAndGet();
                    return null;
                }));
            }
            SaleFixture.await("a third of the buyers answered", Duration.ofSeconds(60), () -> answered.get() >= BUYERS / 3);
            // SIGKILL: whatever the master had not sent its replicas is gone with it
            ProcessHandle.of(pid).orElseThrow().destroyForcibly();
            SaleFixture.await("a replica promoted", Duration.ofSeconds(30), () -> !TOPOLOGY.master().equals(oldMaster));
            // as an operator brings a killed node back, once every Sentinel is past the failover (systemd's
            // restart at once can leave them split: docs/runbook.md): the Sentinels list the dead master as a
            // replica they may promote once it answers, so the sale waits for it (min-replica-acks: all)
            TOPOLOGY.restartAsReplica(oldMaster);
            for (Future<?> buyer : buyers) {
                buyer.get();
            }
        }
        // every reservation a buyer was told about is an order, exactly once
        SaleFixture.await("every reservation ordered", Duration.ofSeconds(60), () -> sale.orders(activity) == STOCK);
        assertThat("final answers " + finals, reserved.size(), is(STOCK));
        for (var entry : reserved.entrySet()) {
            assertThat(sale.ordersOf(entry.getValue(), entry.getKey()), is(1L));
        }
        assertThat(sale.count("SELECT COUNT(DISTINCT user_id) FROM seckill_order WHERE activity_id = ?", activity),
                is((long) STOCK));
        assertThat(sale.available(activity, SKU), is(0L));
        assertThat(InvariantCheck.violations(new InvariantCheck(db, redis).audit(activity)), empty());
        // the instance resumed by itself after reconciling, and reconciliation is clean
        assertThat(sale.send(java.net.http.HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/sales"))
                .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN).GET()).body(),
                is("{\"state\":\"OPEN\"}"));
        String report = sale.admin().reconcile(activity);
        assertThat(report, not(org.hamcrest.Matchers.containsString("MISMATCH")));
        assertThat(report, org.hamcrest.Matchers.containsString("\"state\":\"CLEAN\""));
    }

    @Inject
    seckill.ledger.api.OrderingSwitch ordering;

    @Test
    void theDrillsFailoverFaultStaysSound() throws Exception {
        seckill.drill.api.DrillOptions options = seckill.drill.api.DrillOptions.parse(new String[] {"--buyers", "1500",
                "--stock", "500", "--concurrency", "50", "--fault", "redis-failover", "--settle-timeout", "90",
                "--duration", "60"});
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        seckill.drill.api.Drill drill = new seckill.drill.api.Drill(options, target.getUri(), SaleFixture.ADMIN_TOKEN,
                db, redis, ordering, new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
        List<String> violations = drill.run();
        String report = printed.toString(java.nio.charset.StandardCharsets.UTF_8);
        System.out.println(report);
        assertThat(violations, empty());
        assertThat(report, org.hamcrest.Matchers.containsString("failed over by the Sentinels"));
        assertThat(report, org.hamcrest.Matchers.containsString("invariants    OK"));
    }
}
