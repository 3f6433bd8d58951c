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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.HostAndPort;
import seckill.drill.api.InvariantCheck;
import seckill.system.ClusterTopology;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;

/**
 * Replica acknowledgement on Redis Cluster (issue 29, item 6): three masters with a replica each
 * ({@link ClusterTopology}), {@code min-replica-acks=1}, a SKU over three buckets (one per master).
 * Mid-sale one master is SIGKILLed and the cluster fails its slots over to the replica. Every
 * reservation answered 202 waited for its slot's replica on the connection that wrote it, so each
 * is exactly one order; the killed node comes back (as the new master's replica) and the rest is
 * sold: one unit per buyer, the stock exactly, reconciliation CLEAN. Read from MariaDB and Redis.
 */
@AddConfig(key = "seckill.redis.timeout-millis", value = "1000")
@AddConfig(key = "seckill.redis.min-replica-acks", value = "1")
@AddConfig(key = "seckill.redis.replica-ack-timeout-millis", value = "100")
@AddConfig(key = "seckill.admission.rate-limit-partitions", value = "3")
class ClusterFailoverTest extends ServiceTest {

    @RegisterExtension
    static final ClusterTopology CLUSTER = new ClusterTopology();

    private static final long SKU = 7331;
    private static final int STOCK = 240;
    private static final int BUYERS = 480;

    @Test
    void aMasterKilledMidSaleOnTheClusterLosesNoReservationAnswered202() throws Exception {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createBucketedActivity(SKU, STOCK, 3);
        HostAndPort victim = CLUSTER.masters().getFirst();

        Map<Long, String> reserved = new ConcurrentHashMap<>();
        Map<Integer, AtomicInteger> finals = new ConcurrentHashMap<>();
        AtomicInteger answered = new AtomicInteger();
        List<Future<?>> buyers = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(16)) {
            for (int i = 1; i <= BUYERS; i++) {
                long user = activity * 1000 + i;
                buyers.add(pool.submit(() -> {
                    var answer = sale.purchaseRetrying(activity, user, SKU, 1, "c-" + user);
                    finals.computeIfAbsent(answer.statusCode(), s -> new AtomicInteger()).incrementAndGet();
                    sale.reservationShownBy(answer, user).ifPresent(id -> reserved.put(user, id));
                    answered.incrementAndGet();
                    return null;
                }));
            }
            SaleFixture.await("a sixth of the buyers answered", Duration.ofSeconds(30), () -> answered.get() >= BUYERS / 6);
            CLUSTER.kill(victim);
            SaleFixture.await("the cluster failed over", Duration.ofSeconds(30), CLUSTER::failedOver);
            // the new master has no replica: its shard's reservations halt the sale (NO_REPLICA) until
            // the killed node is back, as its replica
            CLUSTER.restart(victim);
            SaleFixture.await("every master has a replica again", Duration.ofSeconds(30), CLUSTER::ready);
            for (Future<?> buyer : buyers) {
                buyer.get();
            }
        }
        // buyers told "in doubt" while the sale halted retry with their requestId until it is settled
        for (int i = 1; i <= BUYERS && reserved.size() < STOCK; i++) {
            long user = activity * 1000 + i;
            if (!reserved.containsKey(user)) {
                var answer = sale.purchaseRetrying(activity, user, SKU, 1, "c-" + user);
                sale.reservationShownBy(answer, user).ifPresent(id -> reserved.put(user, id));
            }
        }
        SaleFixture.await("every reservation ordered", Duration.ofSeconds(30), () -> sale.orders(activity) == STOCK);
        assertThat("final answers " + finals, reserved.size(), is(STOCK));
        for (var entry : reserved.entrySet()) {
            assertThat(sale.ordersOf(entry.getValue(), entry.getKey()), is(1L));
        }
        assertThat(sale.count("SELECT COUNT(DISTINCT user_id) FROM seckill_order WHERE activity_id = ?", activity),
                is((long) STOCK));
        assertThat(sale.available(activity, SKU), is(0L));
        assertThat(InvariantCheck.violations(new InvariantCheck(db, redis).audit(activity)), empty());
        assertThat(sale.admin().reconcile(activity), containsString("\"state\":\"CLEAN\""));
    }
}
