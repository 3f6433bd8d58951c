package seckill.system.faults;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

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
import static org.hamcrest.Matchers.is;

/**
 * Three replicas; the master dies; one replica cannot follow the new master (here it refuses the
 * Sentinels' {@code REPLICAOF}, an ACL; a cut between it and the new master alone does the same): it
 * keeps following the dead master, answers the Sentinels' PINGs, so they list it up, and
 * {@code min-replica-acks: all} counts it. The new master has one replica connected of the two
 * required: every purchase is in doubt and sales stay halted ({@code NO_REPLICA}) for as long as that
 * replica lives, although the Sentinels would never promote it (its link to a master has been down for
 * longer than they accept) and the new master has a replica that acknowledges every write.
 * <p>
 * What must hold: after the failover, and the killed master back as a replica (as an operator or systemd
 * brings it), sales resume although that replica never follows the new master.
 */
@AddConfig(key = "seckill.redis.timeout-millis", value = "8000")
@AddConfig(key = "seckill.redis.replica-ack-timeout-millis", value = "100")
class UnfollowingReplicaTest extends ServiceTest {

    @RegisterExtension
    static final SentinelTopology TOPOLOGY = new SentinelTopology(3);

    private static final long SKU = 30_611;

    @Test
    void salesResumeAfterAFailoverThoughOneReplicaCannotFollowTheNewMaster() throws Exception {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        SaleFixture.await("three replicas online", Duration.ofSeconds(60), () -> TOPOLOGY.onlineReplicas() == 3);
        TOPOLOGY.awaitSentinelsList(3, Duration.ofSeconds(30));
        SaleFixture.await("sales open", Duration.ofSeconds(60), () -> sale.salesState().contains("\"state\":\"OPEN\""));
        long activity = sale.createOpenActivity(SKU, 50, 1);
        long buyer = activity * 1000;
        assertThat(sale.purchaseRetrying(activity, buyer, SKU, 1, "before").statusCode(), is(202));

        HostAndPort master = TOPOLOGY.master();
        HostAndPort stuck = TOPOLOGY.replicasNow().get(2);
        List<String> timeline = new CopyOnWriteArrayList<>();
        try (Jedis s = new Jedis(stuck)) {
            s.configSet("replica-priority", "0");
            s.sendCommand(Protocol.Command.ACL, "SETUSER", "default", "-replicaof", "-slaveof");
        }
        try {
            SentinelTopology.signal("KILL", SentinelTopology.processId(master));
            timeline.add(Instant.now() + " killed the master " + master);
            SaleFixture.await("the Sentinels promote a replica", Duration.ofSeconds(60),
                    () -> !TOPOLOGY.master().equals(master));
            timeline.add(Instant.now() + " the Sentinels name " + TOPOLOGY.master() + "; list "
                    + TOPOLOGY.listedReplicas(0));
            // the killed master back as a replica, as an operator brings it, once the failover is over on every
            // Sentinel (the replica that refuses to follow holds it open until the failover timeout): what is
            // left to judge is the replica that refuses to follow the new master. (Twice in CI under load
            // the killed master, brought back 0.1 s after the first Sentinel named the new one, was promoted
            // by the two others in a second failover while the leader's was open: the Sentinels ended split
            // for good (SentinelTopology.awaitFailoverOver) and sales halted for the whole 90 s, as they
            // must while one names a replica. The Sentinels' events are in a failure's message now.)
            HostAndPort promoted = TOPOLOGY.restartAsReplica(master);
            timeline.add(Instant.now() + " the failover over on every Sentinel; restarted " + master + " as a replica of "
                    + promoted);
            // buyers keep coming, as they do; each retried as a client does
            long[] next = {buyer + 1};
            try {
                SaleFixture.await("sales open again and a purchase 202", Duration.ofSeconds(90), () -> {
                    long user = next[0]++;
                    int status = sale.purchaseRetrying(activity, user, SKU, 1, "after-" + user).statusCode();
                    return status == 202 && sale.salesState().contains("\"state\":\"OPEN\"");
                });
            } catch (RuntimeException | Error stayedHalted) {
                throw new AssertionError(timeline + "; then " + Instant.now() + " sales " + sale.salesState() + "; list "
                        + TOPOLOGY.listedReplicas(0) + "; new master's replicas online " + TOPOLOGY.onlineReplicas()
                        // each node's own view, for a failure seen once in CI under load (0 replicas online
                        // at the new master for 2 min; 20 s green alone)
                        + "; " + SentinelTopology.replicationOf(TOPOLOGY.master(), master, stuck)
                        + "\nwhat the Sentinels published:\n" + TOPOLOGY.events(),
                        stayedHalted);
            }
        } finally {
            try (Jedis s = new Jedis(stuck)) {
                s.sendCommand(Protocol.Command.ACL, "SETUSER", "default", "+replicaof", "+slaveof");
                s.configSet("replica-priority", "100");
            }
        }
    }
}
