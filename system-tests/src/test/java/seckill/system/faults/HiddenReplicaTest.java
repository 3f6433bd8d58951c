package seckill.system.faults;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
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
 * A replica the Sentinels do not list ({@code replica-announced no}, Redis 6.2+: a backup or analytics
 * replica kept from clients; here also {@code replica-priority 0}, never promoted) is still connected
 * to the master, so {@code WAIT} counts its acknowledgement, while {@code min-replica-acks: all}
 * counts only the replicas {@code SENTINEL REPLICAS} lists: one. When the link of the one listed
 * replica is cut (its node frozen meanwhile, so it cannot reconnect before the master dies), the
 * hidden replica alone acknowledges a purchase, the buyer is told 202, the master is killed, and the
 * Sentinels promote the listed replica, which never got it.
 * <p>
 * What must hold: every reservation answered 202 is exactly one order and reconciliation is CLEAN.
 */
@AddConfig(key = "seckill.redis.timeout-millis", value = "8000")
@AddConfig(key = "seckill.redis.replica-ack-timeout-millis", value = "100")
// peak shaving (docs/configuration.md): reservations wait in the stream, as in any rush, instead of being
// ordered within a millisecond of their 202
@AddConfig(key = "seckill.ordering.max-orders-per-second", value = "1")
class HiddenReplicaTest extends ServiceTest {

    @RegisterExtension
    static final SentinelTopology TOPOLOGY = new SentinelTopology();

    private static final long SKU = 30_581;

    @Test
    void aPurchaseAcknowledgedOnlyByAReplicaTheSentinelsDoNotListIsNotAnswered202AndLost() throws Exception {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        SaleFixture.await("both replicas online", Duration.ofSeconds(60), () -> TOPOLOGY.onlineReplicas() == 2);
        SaleFixture.await("sales open", Duration.ofSeconds(60), () -> sale.salesState().contains("\"state\":\"OPEN\""));
        long activity = sale.createOpenActivity(SKU, 20, 1);
        long buyer = activity * 1000;
        assertThat(sale.purchaseRetrying(activity, buyer, SKU, 1, "before").statusCode(), is(202));

        HostAndPort master = TOPOLOGY.master();
        HostAndPort listed = TOPOLOGY.replicasNow().get(0);
        HostAndPort hidden = TOPOLOGY.replicasNow().get(1);
        List<String> timeline = new CopyOnWriteArrayList<>();
        try (Jedis h = new Jedis(hidden)) {
            h.configSet("replica-priority", "0");
            h.configSet("replica-announced", "no");
        }
        // the Sentinels read a replica's INFO every 10 s; then the service's count (every 0.5 s) is 1
        SaleFixture.await("no Sentinel lists " + hidden, Duration.ofSeconds(30), () -> {
            for (int s = 0; s < TOPOLOGY.sentinels(); s++) {
                if (TOPOLOGY.listedReplicas(s).containsKey(hidden.getHost() + ":" + hidden.getPort())) {
                    return false;
                }
            }
            return true;
        });
        timeline.add(Instant.now() + " Sentinels list " + TOPOLOGY.listedReplicas(0));
        // the count is asked for in the background when a purchase finds it older than 0.5 s, and that purchase
        // uses the answer before: a few purchases 0.6 s apart bring the count the service uses up to date
        for (int i = 1; i <= 3; i++) {
            Thread.sleep(600);
            assertThat("the listed and the hidden replica acknowledge",
                    sale.purchaseRetrying(activity, buyer + i, SKU, 1, "healthy-" + i).statusCode(), is(202));
        }

        long masterPid = SentinelTopology.processId(master);
        long listedPid = SentinelTopology.processId(listed);
        String link = SentinelTopology.replicationLinkAddress(listed);
        java.util.Map<Long, HttpResponse<String>> answers = new java.util.TreeMap<>();
        boolean frozen = false;
        try {
            SentinelTopology.signal("STOP", listedPid);
            frozen = true;
            SentinelTopology.cutReplicationLink(master, link);
            timeline.add(Instant.now() + " froze " + listed + " and cut its link " + link);
            for (long user = buyer + 10; user < buyer + 15; user++) {
                HttpResponse<String> answer = sale.purchase(activity, user, SKU, 1, "cut-" + user);
                answers.put(user, answer);
                timeline.add(Instant.now() + " " + user + " answered " + answer.statusCode() + " " + answer.body());
            }
            timeline.add(Instant.now() + " master " + SentinelTopology.offsets(master) + "; orders " + sale.orders(activity));
            SentinelTopology.signal("KILL", masterPid);
            timeline.add(Instant.now() + " killed the master " + master);
            Thread.sleep(100);
            SentinelTopology.signal("CONT", listedPid);
            frozen = false;
            timeline.add(Instant.now() + " thawed " + listed);
        } finally {
            if (frozen) {
                SentinelTopology.signal("CONT", listedPid);
            }
        }
        SaleFixture.await("the Sentinels promote " + listed, Duration.ofSeconds(60),
                () -> TOPOLOGY.master().equals(listed));
        timeline.add(Instant.now() + " the Sentinels name " + listed + " " + SentinelTopology.offsets(listed));
        TOPOLOGY.restartAsReplica(master);
        SaleFixture.await("sales open again", Duration.ofSeconds(90), () -> sale.salesState().contains("\"state\":\"OPEN\""));
        timeline.add(Instant.now() + " sales open again");
        System.out.println("HiddenReplicaTest: " + timeline);

        for (var told : answers.entrySet()) {
            if (told.getValue().statusCode() == 202) {
                String id = sale.reservationShownBy(told.getValue(), told.getKey()).orElseThrow();
                SaleFixture.await("reservation " + id + " (told 202) ordered; " + timeline, Duration.ofSeconds(30),
                        () -> sale.ordersOf(id, told.getKey()) == 1);
            }
        }
        String report = sale.admin().reconcile(activity);
        System.out.println("HiddenReplicaTest reconciliation: " + report);
        assertThat(timeline.toString(), report, not(containsString("MISMATCH")));
        assertThat(report, containsString("\"state\":\"CLEAN\""));
    }
}
