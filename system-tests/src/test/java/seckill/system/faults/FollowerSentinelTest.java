package seckill.system.faults;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.helidon.microprofile.testing.junit5.AddConfig;
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
 * Seed 4's shape (DeposedMasterTest's second method), with the failover led by a Sentinel other than the
 * first one named in {@code seckill.redis.uri}, the one the service asks for the replicas. A Sentinel
 * flags a replica {@code promoted} only when it leads the failover that promotes it (sentinel.c sets
 * {@code SRI_PROMOTED} in the leader's failover state machine; the others learn of the new master only
 * from the leader's hello messages once the promoted replica reports its role). So while the promoted
 * replica is frozen the Sentinel asked lists it {@code s_down} and not {@code promoted}, and counts one
 * replica: the one still following the deposed master, which acknowledges its writes.
 * <p>
 * What must hold: every reservation answered 202 is exactly one order and reconciliation is CLEAN.
 */
@AddConfig(key = "seckill.redis.timeout-millis", value = "8000")
@AddConfig(key = "seckill.redis.replica-ack-timeout-millis", value = "100")
// peak shaving (docs/configuration.md): reservations wait in the stream, as in any rush
@AddConfig(key = "seckill.ordering.max-orders-per-second", value = "2")
class FollowerSentinelTest extends ServiceTest {

    @RegisterExtension
    static final SentinelTopology TOPOLOGY = new SentinelTopology();

    private static final long SKU = 30_601;

    /**
     * Seed 4 on {@code sentinel} (docs/chaos.md): the replica the Sentinels promoted is frozen
     * ({@code SIGSTOP}) before it reports its new role, so the failover cannot finish and the deposed
     * master, once its pause lapses, takes purchases that the other replica, still following it,
     * acknowledges. While it is frozen the Sentinels hold the promoted replica down; buyers keep
     * clicking through all of it. When it thaws it takes over and the deposed master's writes are
     * gone: none of them may have been answered 202.
     */
    @Test
    void purchasesAcknowledgedWhileThePromotedReplicaIsFrozenAreNotAnswered202AndLostWhenTheSentinelAskedDidNotLeadTheFailover() throws Exception {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        SaleFixture.await("sales open", Duration.ofSeconds(60), () -> sale.salesState().contains("\"state\":\"OPEN\""));
        SaleFixture.await("both replicas online", Duration.ofSeconds(60), () -> TOPOLOGY.onlineReplicas() == 2);
        long activity = sale.createOpenActivity(SKU + 1, 200, 1);
        long buyer = activity * 1000;
        assertThat(sale.purchaseRetrying(activity, buyer, SKU + 1, 1, "before").statusCode(), is(202));

        HostAndPort master = TOPOLOGY.master();
        HostAndPort promoted = TOPOLOGY.replicasNow().get(0);
        HostAndPort follower = TOPOLOGY.replicasNow().get(1);
        long promotedPid = SentinelTopology.processId(promoted);
        Map<Long, HttpResponse<String>> answers = new ConcurrentHashMap<>();
        java.util.concurrent.atomic.AtomicBoolean clicking = new java.util.concurrent.atomic.AtomicBoolean(true);
        java.util.concurrent.atomic.AtomicLong next = new java.util.concurrent.atomic.AtomicLong(buyer + 1);
        boolean frozen = false;
        List<String> timeline = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (Jedis follows = new Jedis(follower)) {
            // never promoted: the Sentinels pick the other one, deterministically
            follows.configSet("replica-priority", "0");
            // the first Sentinel (the one the service asks) sees a master down 0.5 s after the other two, so
            // one of those leads the failover: only the leader flags the replica it promotes 'promoted'
            // which Sentinel the service asks (its set of Sentinels has no order): the one whose accepted
            // connections grow while purchases make the service count again, twice a second
            long[] before = new long[TOPOLOGY.sentinels()];
            for (int s = 0; s < before.length; s++) {
                before[s] = TOPOLOGY.connectionsReceived(s);
            }
            for (int i = 1; i <= 5; i++) {
                Thread.sleep(600);
                sale.purchaseRetrying(activity, buyer + 100_000 + i, SKU + 1, 1, "which-" + i);
            }
            int asked = 0;
            long most = -1;
            for (int s = 0; s < before.length; s++) {
                long grown = TOPOLOGY.connectionsReceived(s) - before[s];
                timeline.add("Sentinel " + s + " accepted " + grown + " connections");
                if (grown > most) {
                    most = grown;
                    asked = s;
                }
            }
            // the Sentinel the service asks sees a master down 0.5 s after the other two, so one of those
            // leads the failover: only the leader flags the replica it promotes 'promoted'
            TOPOLOGY.sentinelSet(asked, "down-after-milliseconds", "1500");
            final int askedSentinel = asked;
            // Redis' default failover-timeout is 3 minutes; 20 s here leave the frozen promoted replica 3 s
            // more than the drill's 5 s would (the service halts, reconciles and resumes in them)
            for (int s = 0; s < TOPOLOGY.sentinels(); s++) {
                TOPOLOGY.sentinelSet(s, "failover-timeout", "20000");
            }
            timeline.add("asked Sentinel " + asked + "; down-after-milliseconds " + TOPOLOGY.sentinelMasterField(0, "down-after-milliseconds") + " / "
                    + TOPOLOGY.sentinelMasterField(1, "down-after-milliseconds") + " / "
                    + TOPOLOGY.sentinelMasterField(2, "down-after-milliseconds"));
            SaleFixture.await("both replicas online before the pause", Duration.ofSeconds(60),
                    () -> TOPOLOGY.onlineReplicas() == 2);
            // a click every 50 ms, none waiting for another: clicks keep arriving while earlier ones wait on
            // the paused master, so some are sent after the Sentinels hold the frozen replica down
            ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
            Thread clicker = Thread.ofPlatform().name("clicker").start(() -> {
                while (clicking.get()) {
                    long user = next.getAndIncrement();
                    pool.submit(() -> answers.put(user, sale.purchase(activity, user, SKU + 1, 1, "click-" + user)));
                    sleep(50);
                }
            });
            try {
                try (Jedis paused = new Jedis(master)) {
                    paused.sendCommand(Protocol.Command.CLIENT, "PAUSE", "5000", "ALL");
                }
                timeline.add(java.time.Instant.now() + " paused " + master);
                SaleFixture.await("the Sentinels promoted " + promoted, Duration.ofSeconds(30),
                        () -> SentinelTopology.callsItselfMaster(promoted));
                SentinelTopology.signal("STOP", promotedPid);
                frozen = true;
                timeline.add(java.time.Instant.now() + " froze " + promoted);
                SaleFixture.await("the Sentinels hold " + promoted + " down", Duration.ofSeconds(30),
                        () -> TOPOLOGY.listedReplicas(askedSentinel).getOrDefault(promoted.getHost() + ":"
                                + promoted.getPort(), "").contains("s_down"));
                timeline.add(java.time.Instant.now() + " the Sentinels hold " + promoted + " down; as listed by each: "
                        + TOPOLOGY.listedReplicas(0) + " / " + TOPOLOGY.listedReplicas(1) + " / " + TOPOLOGY.listedReplicas(2));
                // the count of replicas up is read again every half second; the pause lapses and the deposed
                // master runs what waited on it while buyers keep clicking; the promoted replica thaws
                // before the Sentinels' failover-timeout (5 s from the failover's start) gives it up
                SaleFixture.await("the deposed master answers", Duration.ofSeconds(30), () -> {
                    try (Jedis m = new Jedis(master)) {
                        return "PONG".equals(m.ping());
                    }
                });
                timeline.add(java.time.Instant.now() + " the deposed master answers");
                Thread.sleep(3000);
                timeline.add(java.time.Instant.now() + " " + answers.values().stream()
                        .filter(a -> a.statusCode() == 202).count() + " clicks told 202 so far; sales "
                        + sale.salesState().replaceAll("\\s+", " "));
                SentinelTopology.signal("CONT", promotedPid);
                frozen = false;
                timeline.add(java.time.Instant.now() + " thawed " + promoted);
                SaleFixture.await("the Sentinels name " + promoted, Duration.ofSeconds(60),
                        () -> TOPOLOGY.master().equals(promoted));
                clicking.set(false);
            } catch (RuntimeException | Error e) {
                throw new AssertionError("timeline " + timeline + "; nodes " + SentinelTopology.replicationOf(master, promoted, follower), e);
            } finally {
                clicking.set(false);
                clicker.join();
                if (frozen) {
                    SentinelTopology.signal("CONT", promotedPid);
                }
                pool.shutdown();
                pool.awaitTermination(60, java.util.concurrent.TimeUnit.SECONDS);
                // a fresh connection: the Sentinels' REPLICAOF may have closed the first one
                try (Jedis again = new Jedis(follower)) {
                    again.configSet("replica-priority", "100");
                }
            }
        }
        SaleFixture.await("both replicas follow " + promoted, Duration.ofSeconds(60),
                () -> TOPOLOGY.onlineReplicas() == 2);
        SaleFixture.await("sales open again", Duration.ofSeconds(60), () -> sale.salesState().contains("\"state\":\"OPEN\""));

        long told202 = 0;
        for (var answer : answers.entrySet()) {
            if (answer.getValue().statusCode() == 202) {
                told202++;
                String id = sale.reservationShownBy(answer.getValue(), answer.getKey()).orElseThrow();
                SaleFixture.await("reservation " + id + " (told 202) ordered; " + timeline, Duration.ofSeconds(30),
                        () -> sale.ordersOf(id, answer.getKey()) == 1);
            }
        }
        String report = sale.admin().reconcile(activity);
        System.out.println("FollowerSentinelTest: " + told202 + " of " + answers.size() + " clicks told 202; "
                + timeline);
        assertThat(told202 + " of " + answers.size() + " clicks told 202; " + timeline, report, not(containsString("MISMATCH")));
        assertThat(report, containsString("\"state\":\"CLEAN\""));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
