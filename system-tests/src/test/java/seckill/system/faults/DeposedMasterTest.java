package seckill.system.faults;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.helidon.microprofile.testing.junit5.AddConfig;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;
import seckill.system.SaleFixture;
import seckill.system.SentinelTopology;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * The chaos drill's seed 42 on {@code sentinel} (2026-12-03, docs/chaos.md): purchases sent while the
 * master was paused ({@code CLIENT PAUSE} longer than the Sentinels' {@code down-after-milliseconds})
 * waited on it; the Sentinels promoted one replica meanwhile; when the pause lapsed the old master ran
 * them, the other replica, not yet told to follow the new master, acknowledged them ({@code WAIT 1}
 * answered 1), and the buyers were told 202. The ledger ordered them from the old master's stream; then
 * the old master and that replica were made replicas of the new master, whose data had none of them:
 * Redis lost four reservations the ledger holds (stock over by 4, reconciliation MISMATCH "Redis reserved
 * 16 != settled 77 + pending 0 - released 59"). Here the same, made deterministic: the replica that must
 * not be promoted ({@code replica-priority 0}) also refuses the Sentinels' {@code REPLICAOF} for a while
 * (an ACL), so it keeps following the deposed master as the drill's did for 0.9 s.
 * <p>
 * What must hold: every reservation answered 202 is exactly one order and reconciliation is CLEAN.
 * Open defect, so {@code @Disabled}: an acknowledgement by one replica does not prove the write
 * survives a failover once the Sentinels may have promoted another (the promoted one stops replicating
 * from the old master before the old master runs what waited on it).
 */
@AddConfig(key = "seckill.redis.timeout-millis", value = "8000")
@AddConfig(key = "seckill.redis.min-replica-acks", value = "1")
@AddConfig(key = "seckill.redis.replica-ack-timeout-millis", value = "100")
class DeposedMasterTest extends ServiceTest {

    @RegisterExtension
    static final SentinelTopology TOPOLOGY = new SentinelTopology();

    private static final long SKU = 30_571;
    private static final int CLICKS = 6;

    // on the method, not the class: a disabled class never gets afterAll, so the topology its static
    // extension started (processes and the seckill.redis.uri property) would leak into every later test
    @Disabled("open finding of the chaos drill (seed 42 on sentinel, docs/chaos.md): a write acknowledged by a"
            + " replica that still follows a deposed master is answered 202 and lost")
    @Test
    void purchasesThatWaitedOnAMasterTheSentinelsDeposedAreNotAnswered202AndLost() throws Exception {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        SaleFixture.await("sales open", Duration.ofSeconds(30), () -> sales(sale).contains("\"state\":\"OPEN\""));
        long activity = sale.createOpenActivity(SKU, 20, 1);
        long buyer = activity * 1000;
        assertThat(sale.purchaseRetrying(activity, buyer, SKU, 1, "before").statusCode(), is(202));

        HostAndPort master = TOPOLOGY.master();
        HostAndPort promoted = TOPOLOGY.replicas().get(0);
        HostAndPort lagging = TOPOLOGY.replicas().get(1);
        Map<Long, HttpResponse<String>> answers = new ConcurrentHashMap<>();
        // when each was answered, for the failure's message
        Map<Long, String> said = new ConcurrentHashMap<>();
        String[] promotedAt = {"?"};
        try (Jedis lag = new Jedis(lagging)) {
            // never promoted, and not reconfigured by the Sentinels: it goes on following the old master
            lag.configSet("replica-priority", "0");
            lag.sendCommand(Protocol.Command.ACL, "SETUSER", "default", "-replicaof", "-slaveof");
            try {
                try (Jedis paused = new Jedis(master)) {
                    paused.sendCommand(Protocol.Command.CLIENT, "PAUSE", "4000", "ALL");
                }
                List<Future<?>> clicks = new ArrayList<>();
                try (ExecutorService pool = Executors.newFixedThreadPool(CLICKS)) {
                    for (int i = 1; i <= CLICKS; i++) {
                        long user = buyer + i;
                        clicks.add(pool.submit(() -> {
                            HttpResponse<String> answer = sale.purchase(activity, user, SKU, 1, "paused-" + user);
                            answers.put(user, answer);
                            said.put(user, java.time.Instant.now() + " " + answer.statusCode() + " " + answer.body());
                            return null;
                        }));
                    }
                    SaleFixture.await("the Sentinels promoted " + promoted, Duration.ofSeconds(30), () -> {
                        try (Jedis p = new Jedis(promoted)) {
                            return p.info("replication").contains("role:master");
                        }
                    });
                    promotedAt[0] = java.time.Instant.now().toString();
                    for (Future<?> click : clicks) {
                        click.get();
                    }
                }
                SaleFixture.await("the Sentinels name " + promoted, Duration.ofSeconds(30),
                        () -> TOPOLOGY.master().equals(promoted));
            } finally {
                lag.sendCommand(Protocol.Command.ACL, "SETUSER", "default", "+replicaof", "+slaveof");
                lag.configSet("replica-priority", "100");
            }
        }
        SaleFixture.await("both replicas follow " + promoted, Duration.ofSeconds(60),
                () -> TOPOLOGY.onlineReplicas() == 2);
        SaleFixture.await("sales open again", Duration.ofSeconds(60), () -> sales(sale).contains("\"state\":\"OPEN\""));

        // every buyer told 202 has exactly one order; the reservations Redis holds match the ledger's
        for (var answer : answers.entrySet()) {
            if (answer.getValue().statusCode() == 202) {
                String id = sale.reservationShownBy(answer.getValue(), answer.getKey()).orElseThrow();
                SaleFixture.await("reservation " + id + " ordered (promoted at " + promotedAt[0] + "; answers " + said
                                + ")", Duration.ofSeconds(30),
                        () -> sale.ordersOf(id, answer.getKey()) == 1);
            }
        }
        String report = sale.admin().reconcile(activity);
        assertThat(answers.toString(), report, not(containsString("MISMATCH")));
        assertThat(report, containsString("\"state\":\"CLEAN\""));
    }

    private static String sales(SaleFixture sale) {
        return sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/sales"))
                .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN).GET()).body();
    }
}
