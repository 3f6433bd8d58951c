package seckill.system.faults;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.helidon.microprofile.testing.junit5.AddConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import seckill.system.SaleFixture;
import seckill.system.SentinelTopology;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * The Sentinels pick the replica to promote by {@code replica-priority} first and replication offset
 * only second. {@code min-replica-acks: all} leaves out a replica the Sentinels hold down
 * ({@code s_down}), but a replica held down is promotable again as soon as it answers a PING, caught up
 * or not. Here the operator's preferred replica ({@code replica-priority 10}, the other 100) freezes
 * ({@code SIGSTOP}) long enough to be held down; the count drops to one; its replication link is cut
 * meanwhile (the master closes it, as a network cut or a {@code repl-timeout} would); purchases are
 * acknowledged by the other replica alone and answered 202; the master is killed and the preferred
 * replica thaws: the Sentinels promote it, without those purchases.
 * <p>
 * What must hold: every reservation answered 202 is exactly one order and reconciliation is CLEAN.
 */
@AddConfig(key = "seckill.redis.timeout-millis", value = "8000")
@AddConfig(key = "seckill.redis.replica-ack-timeout-millis", value = "100")
// peak shaving (docs/configuration.md): reservations wait in the stream, as in any rush
@AddConfig(key = "seckill.ordering.max-orders-per-second", value = "1")
class PreferredReplicaReturnsTest extends ServiceTest {

    @RegisterExtension
    static final SentinelTopology TOPOLOGY = new SentinelTopology();

    private static final long SKU = 30_591;

    @Test
    void purchasesAcknowledgedWhileThePreferredReplicaWasHeldDownAreNotAnswered202AndLost() throws Exception {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        SaleFixture.await("both replicas online", Duration.ofSeconds(60), () -> TOPOLOGY.onlineReplicas() == 2);
        SaleFixture.await("sales open", Duration.ofSeconds(60), () -> sale.salesState().contains("\"state\":\"OPEN\""));
        long activity = sale.createOpenActivity(SKU, 30, 1);
        long buyer = activity * 1000;
        assertThat(sale.purchaseRetrying(activity, buyer, SKU, 1, "before").statusCode(), is(202));

        HostAndPort master = TOPOLOGY.master();
        HostAndPort other = TOPOLOGY.replicasNow().get(0);
        HostAndPort preferred = TOPOLOGY.replicasNow().get(1);
        String preferredName = preferred.getHost() + ":" + preferred.getPort();
        List<String> timeline = new CopyOnWriteArrayList<>();
        try (Jedis p = new Jedis(preferred)) {
            p.configSet("replica-priority", "10");
        }
        SaleFixture.await("every Sentinel knows " + preferred + " is preferred", Duration.ofSeconds(30), () -> {
            for (int s = 0; s < TOPOLOGY.sentinels(); s++) {
                if (!TOPOLOGY.listedReplicas(s).getOrDefault(preferredName, "").endsWith(" priority=10")) {
                    return false;
                }
            }
            return true;
        });
        long masterPid = SentinelTopology.processId(master);
        long preferredPid = SentinelTopology.processId(preferred);
        String link = SentinelTopology.replicationLinkAddress(preferred);
        Map<Long, HttpResponse<String>> answers = new TreeMap<>();
        boolean frozen = false;
        try {
            SentinelTopology.signal("STOP", preferredPid);
            frozen = true;
            timeline.add(Instant.now() + " froze " + preferred);
            SaleFixture.await("every Sentinel holds " + preferred + " down", Duration.ofSeconds(30), () -> {
                for (int s = 0; s < TOPOLOGY.sentinels(); s++) {
                    if (!TOPOLOGY.listedReplicas(s).getOrDefault(preferredName, "").contains("s_down")) {
                        return false;
                    }
                }
                return true;
            });
            timeline.add(Instant.now() + " held down: " + TOPOLOGY.listedReplicas(0));
            // the service still counts the preferred replica (held down, priority above 0): these purchases are
            // in doubt or halted, once each (retrying them would only wait out the freeze)
            for (int i = 1; i <= 3; i++) {
                Thread.sleep(600);
                HttpResponse<String> answer = sale.purchase(activity, buyer + i, SKU, 1, "down-" + i);
                timeline.add(Instant.now() + " " + (buyer + i) + " answered " + answer.statusCode());
            }
            SentinelTopology.cutReplicationLink(master, link);
            timeline.add(Instant.now() + " cut the link " + link + " of " + preferred);
            for (long user = buyer + 10; user < buyer + 15; user++) {
                HttpResponse<String> answer = sale.purchase(activity, user, SKU, 1, "cut-" + user);
                answers.put(user, answer);
                timeline.add(Instant.now() + " " + user + " answered " + answer.statusCode() + " " + answer.body());
            }
            timeline.add(Instant.now() + " master " + SentinelTopology.offsets(master) + "; orders " + sale.orders(activity));
            SentinelTopology.signal("KILL", masterPid);
            timeline.add(Instant.now() + " killed the master " + master);
            Thread.sleep(100);
            SentinelTopology.signal("CONT", preferredPid);
            frozen = false;
            timeline.add(Instant.now() + " thawed " + preferred);
        } finally {
            if (frozen) {
                SentinelTopology.signal("CONT", preferredPid);
            }
        }
        SaleFixture.await("the Sentinels promote a replica", Duration.ofSeconds(60),
                () -> !TOPOLOGY.master().equals(master));
        HostAndPort promoted = TOPOLOGY.master();
        timeline.add(Instant.now() + " the Sentinels name " + promoted + " " + SentinelTopology.offsets(promoted));
        TOPOLOGY.restartAsReplica(master);
        SaleFixture.await("sales open again", Duration.ofSeconds(90), () -> sale.salesState().contains("\"state\":\"OPEN\""));
        timeline.add(Instant.now() + " sales open again");
        System.out.println("PreferredReplicaReturnsTest: " + timeline);

        for (var told : answers.entrySet()) {
            if (told.getValue().statusCode() == 202) {
                String id = sale.reservationShownBy(told.getValue(), told.getKey()).orElseThrow();
                SaleFixture.await("reservation " + id + " (told 202) ordered; " + timeline, Duration.ofSeconds(30),
                        () -> sale.ordersOf(id, told.getKey()) == 1);
            }
        }
        String report = sale.admin().reconcile(activity);
        System.out.println("PreferredReplicaReturnsTest reconciliation: " + report);
        assertThat(timeline.toString(), report, not(containsString("MISMATCH")));
        assertThat(report, containsString("\"state\":\"CLEAN\""));
    }
}
