package seckill.system.faults;

import java.time.Duration;
import java.util.List;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.ClientType;
import redis.clients.jedis.params.ClientKillParams;
import seckill.drill.api.InvariantCheck;
import seckill.settlement.api.Reconciliation;
import seckill.system.SaleFixture;
import seckill.system.SentinelTopology;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/**
 * A refill is applied under the same replica acknowledgement as a reservation. The only unit of a
 * sale is bought, its order expires, and its refill goes through the outbox while both replicas are
 * frozen (SIGSTOP) and cut off: the master puts the unit back, no replica has it. The master is then
 * SIGKILLed and a replica promoted. The refill must not have been marked applied on the word of the
 * dead master: it is applied again on the new one, so the unit is on sale again and a second buyer
 * gets it. Read from the database and from Redis.
 */
@AddConfig(key = "seckill.redis.timeout-millis", value = "1000")
@AddConfig(key = "seckill.redis.min-replica-acks", value = "1")
@AddConfig(key = "seckill.redis.replica-ack-timeout-millis", value = "50")
@AddConfig(key = "seckill.settlement.timeout-scan-seconds", value = "1")
class RefillFailoverTest extends ServiceTest {

    @RegisterExtension
    static final SentinelTopology TOPOLOGY = new SentinelTopology();

    private static final long SKU = 7321;

    @Inject
    Reconciliation reconciliation;

    @Test
    void aRefillTheReplicasNeverHadIsAppliedAgainAfterTheFailover() throws Exception {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createOpenActivity(SKU, 1, 1);
        long first = activity * 1000 + 1;
        long second = activity * 1000 + 2;
        String stockKey = InvariantCheck.bucketKey(activity, SKU, 0, 1, "stock");
        HostAndPort oldMaster = TOPOLOGY.master();

        assertThat(sale.purchaseRetrying(activity, first, SKU, 1, "r-first").statusCode(), is(202));
        SaleFixture.await("the first buyer ordered", Duration.ofSeconds(30), () -> sale.orders(activity) == 1);
        try (Jedis master = new Jedis(oldMaster)) {
            master.set("replicas-caught-up", "1");
            assertThat("both replicas hold everything so far", master.waitReplicas(2, 5_000), is(2L));
        }

        List<Long> replicaPids = TOPOLOGY.replicas().stream().map(SentinelTopology::processId).toList();
        replicaPids.forEach(pid -> signal("STOP", pid));
        try {
            try (Jedis master = new Jedis(oldMaster)) {
                master.clientKill(ClientKillParams.clientKillParams().type(ClientType.REPLICA));
                SaleFixture.await("no replica connected", Duration.ofSeconds(10),
                        () -> master.info("replication").contains("connected_slaves:0"));
                // the first buyer does not pay: the timeout sweep expires the order and queues its refill
                db.execute().dml("UPDATE seckill_order SET expire_at = ? WHERE activity_id = ?",
                        java.time.LocalDateTime.now(java.time.ZoneOffset.UTC).minusMinutes(1), activity);
                SaleFixture.await("the relay put the unit back on the master", Duration.ofSeconds(30),
                        () -> "1".equals(master.get(stockKey)) && sale.count("""
                                SELECT COUNT(*) FROM stock_sync_outbox
                                WHERE activity_id = ? AND (status = 1 OR attempts > 0)""", activity) == 1);
            }
            ProcessHandle.of(SentinelTopology.processId(oldMaster)).orElseThrow().destroyForcibly();
        } finally {
            replicaPids.forEach(pid -> signal("CONT", pid));
        }
        SaleFixture.await("a replica promoted", Duration.ofSeconds(30), () -> !TOPOLOGY.master().equals(oldMaster));

        try {
            SaleFixture.await("the refill applied on the new master", Duration.ofSeconds(60), () -> {
                try (Jedis master = new Jedis(TOPOLOGY.master())) {
                    return sale.count("SELECT COUNT(*) FROM stock_sync_outbox WHERE activity_id = ? AND status = 1",
                            activity) == 1 && "1".equals(master.get(stockKey));
                } catch (RuntimeException notYet) {
                    return false;
                }
            });
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            try (Jedis master = new Jedis(TOPOLOGY.master())) {
                assertThat("outbox status/attempts " + sale.column("SELECT CONCAT(status, '/', attempts) FROM"
                        + " stock_sync_outbox WHERE activity_id = ?", activity) + ", refilled set "
                        + master.smembers(InvariantCheck.bucketKey(activity, SKU, 0, 1, "refilled")),
                        master.get(stockKey), is("1"));
            }
            throw e;
        }

        assertThat("the unit is on sale again", sale.purchaseRetrying(activity, second, SKU, 1, "r-second").statusCode(),
                is(202));
        SaleFixture.await("the second buyer ordered", Duration.ofSeconds(30), () -> sale.count(
                "SELECT COUNT(*) FROM seckill_order WHERE activity_id = ? AND user_id = ? AND status = 0",
                activity, second) == 1);
        assertThat(sale.available(activity, SKU), is(0L));
        assertThat(reconciliation.reconcile(activity).stream().map(r -> r.state() + " " + r.detail()).toList(),
                everyItem(startsWith("CLEAN")));
        // one live order for the one unit (InvariantCheck counts the expired order too, so it is not asked here)
        assertThat(sale.count("SELECT COUNT(*) FROM seckill_order WHERE activity_id = ? AND status <> 2", activity), is(1L));
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
