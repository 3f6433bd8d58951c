package seckill.system.faults;

import java.net.http.HttpResponse;
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
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.ClientType;
import redis.clients.jedis.params.ClientKillParams;
import redis.clients.jedis.params.XPendingParams;
import seckill.drill.api.InvariantCheck;
import seckill.reservation.api.ReservationEvents;
import seckill.reservation.api.RemainingStock;
import seckill.settlement.api.Reconciliation;
import seckill.system.SaleFixture;
import seckill.system.SentinelTopology;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;

/**
 * Reservations recorded on a master whose replicas never received them die with that master, so the
 * ledger must never hold an order for one. Both replicas are frozen (SIGSTOP) and their links to the
 * master cut ({@code CLIENT KILL TYPE replica}) while buyers purchase:
 * the master records their reservations, the buyers are answered "in doubt", and the ordering workers
 * see the events. Then the master is SIGKILLed and the replicas thawed; a replica that never had
 * those events becomes the master. No order may exist for them; the ledger and the new master agree
 * (reconciliation CLEAN), and the sale goes on to sell its stock exactly, one order per buyer
 * answered 202 (or told 410 by the sold-out flag on a retry while holding a unit from an attempt
 * answered "in doubt": the 410's {@code reservations} link shows it). Read from the database and
 * from Redis, not from HTTP answers.
 */
@AddConfig(key = "seckill.redis.timeout-millis", value = "1000")
@AddConfig(key = "seckill.redis.replica-ack-timeout-millis", value = "50")
class UnreplicatedReservationsTest extends ServiceTest {

    @RegisterExtension
    static final SentinelTopology TOPOLOGY = new SentinelTopology();

    private static final long SKU = 7311;
    private static final int STOCK = 40;
    private static final int EARLY_BUYERS = 10;
    private static final int FROZEN_BUYERS = 5;
    private static final int LATE_BUYERS = 40;

    @Inject
    ReservationEvents events;

    @Inject
    Reconciliation reconciliation;

    @Inject
    RemainingStock stock;

    @Test
    void anEventNoReplicaHoldsIsNeverOrdered() throws Exception {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createOpenActivity(SKU, STOCK, 1);
        HostAndPort oldMaster = TOPOLOGY.master();

        for (int i = 1; i <= EARLY_BUYERS; i++) {
            assertThat(sale.purchaseRetrying(activity, activity * 1000 + i, SKU, 1, "r-" + i).statusCode(), is(202));
        }
        SaleFixture.await("the early buyers ordered", Duration.ofSeconds(30), () -> sale.orders(activity) == EARLY_BUYERS);
        try (Jedis master = new Jedis(oldMaster)) {
            master.set("replicas-caught-up", "1");
            assertThat("both replicas hold everything so far", master.waitReplicas(2, 5_000), is(2L));
        }

        List<Long> replicaPids = TOPOLOGY.replicas().stream().map(SentinelTopology::processId).toList();
        // frozen, then cut off: bytes already in a replica's socket would still reach it when thawed,
        // so the master drops the links while the replicas cannot reconnect
        replicaPids.forEach(pid -> signal("STOP", pid));
        try {
            try (Jedis master = new Jedis(oldMaster)) {
                master.clientKill(ClientKillParams.clientKillParams().type(ClientType.REPLICA));
                SaleFixture.await("no replica connected", Duration.ofSeconds(10),
                        () -> master.info("replication").contains("connected_slaves:0"));
            }
            long frozenAnswered202 = 0;
            for (int i = 1; i <= FROZEN_BUYERS; i++) {
                long user = activity * 1000 + EARLY_BUYERS + i;
                if (sale.purchase(activity, user, SKU, 1, "r-" + user).statusCode() == 202) {
                    frozenAnswered202++;
                }
            }
            assertThat("no replica acknowledged, so no 202", frozenAnswered202, is(0L));
            assertThat("the master recorded a frozen buyer's reservation",
                    stock.remaining(activity, SKU, 1).orElseThrow() < STOCK - EARLY_BUYERS, is(true));
            // the workers have seen every event: each is settled, or still pending and already read again
            List<String> streams = events.activeStreams();
            assertThat(streams.size(), is(1));
            SaleFixture.await("the workers saw every event", Duration.ofSeconds(30), () -> streams.stream().allMatch(s ->
                    events.undelivered(s) == 0 && redis.xpending(s, "ordering", XPendingParams.xPendingParams().count(100))
                            .stream().allMatch(p -> p.getDeliveredTimes() >= 2)));
            ProcessHandle.of(SentinelTopology.processId(oldMaster)).orElseThrow().destroyForcibly();
        } finally {
            replicaPids.forEach(pid -> signal("CONT", pid));
        }
        SaleFixture.await("a replica promoted", Duration.ofSeconds(30), () -> !TOPOLOGY.master().equals(oldMaster));
        // the killed master back, as an operator brings it (with min-replica-acks: all the sale waits for every
        // replica the Sentinels list, the dead master among them)
        TOPOLOGY.restartAsReplica(oldMaster);

        // the frozen buyers, told "in doubt", do not come back (a retry of the very same request would
        // be re-issued the same reservation id and hide the loss); new buyers take the rest
        Map<Long, String> reserved = new ConcurrentHashMap<>();
        Map<Integer, AtomicInteger> finals = new ConcurrentHashMap<>();
        List<Future<?>> buyers = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            for (int i = EARLY_BUYERS + FROZEN_BUYERS + 1; i <= EARLY_BUYERS + FROZEN_BUYERS + LATE_BUYERS; i++) {
                long user = activity * 1000 + i;
                buyers.add(pool.submit(() -> {
                    HttpResponse<String> answer = sale.purchaseRetrying(activity, user, SKU, 1, "r-" + user);
                    finals.computeIfAbsent(answer.statusCode(), c -> new AtomicInteger())
                            .incrementAndGet();
                    // a 202/200, or a 410 to a buyer told "in doubt" before who holds a unit (its link shows it)
                    sale.reservationShownBy(answer, user).ifPresent(id -> reserved.put(user, id));
                    return null;
                }));
            }
            for (Future<?> buyer : buyers) {
                buyer.get();
            }
        }

        assertThat("final answers " + finals, reserved.size(), is(STOCK - EARLY_BUYERS));
        SaleFixture.await("every reservation ordered", Duration.ofSeconds(60), () -> sale.orders(activity) == STOCK);
        for (var entry : reserved.entrySet()) {
            assertThat(sale.ordersOf(entry.getValue(), entry.getKey()), is(1L));
        }
        assertThat(sale.count("SELECT COUNT(DISTINCT user_id) FROM seckill_order WHERE activity_id = ?", activity),
                is((long) STOCK));
        assertThat("the frozen buyers' reservations died with the master: no order for them",
                sale.count("SELECT COUNT(*) FROM seckill_order WHERE activity_id = ? AND user_id > ? AND user_id <= ?",
                        activity, activity * 1000 + EARLY_BUYERS, activity * 1000 + EARLY_BUYERS + FROZEN_BUYERS), is(0L));
        assertThat(sale.available(activity, SKU), is(0L));
        assertThat(reconciliation.reconcile(activity).stream().map(r -> r.state() + " " + r.detail()).toList(),
                everyItem(org.hamcrest.Matchers.startsWith("CLEAN")));
        assertThat(InvariantCheck.violations(new InvariantCheck(db, redis).audit(activity)), empty());
    }

    private static void signal(String signal, long pid) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
            assertThat("kill -" + signal + " " + pid, kill.waitFor(), is(0));
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
