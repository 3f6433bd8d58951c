package seckill.redis;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/** Which replicas {@code min-replica-acks: all} waits for, from the Sentinels' list and the master's. */
class SentinelReplicasTest {

    private static Map<String, String> replica(int port, String flags, int priority) {
        return Map.of("name", "127.0.0.1:" + port, "ip", "127.0.0.1", "port", Integer.toString(port), "flags", flags,
                "slave-priority", Integer.toString(priority));
    }

    @Test
    void everyReplicaHeldUpCountsWhateverItFollowsOrItsPriority() {
        // the deposed master's case: the one still following the old master and one never to be promoted
        // (priority 0) are up: both count
        List<Map<String, String>> listed = List.of(replica(7001, "slave", 0), replica(7002, "slave", 100));
        assertThat(SentinelReplicas.countUp(listed), is(2));
    }

    @Test
    void aDownReplicaCountsUnlessItCanNeverBePromoted() {
        // equal priority: the Sentinels may still pick it by an offset read a second ago (soak seed 15)
        assertThat(SentinelReplicas.countUp(List.of(replica(7001, "s_down,slave,disconnected", 100),
                replica(7002, "slave", 100))), is(2));
        // PreferredReplicaReturnsTest: the Sentinels prefer the down one (priority 10) the moment it answers
        assertThat(SentinelReplicas.countUp(List.of(replica(7001, "s_down,slave", 10), replica(7002, "slave", 100))),
                is(2));
        // a down replica never promoted (priority 0) does not count
        assertThat(SentinelReplicas.counted(List.of(replica(7001, "s_down,slave", 0), replica(7002, "slave", 100)),
                null, Long.MAX_VALUE), is(Set.of("127.0.0.1:7002")));
    }

    @Test
    void thePromotedReplicaCountsWhileDownFlaggedOrNot() {
        // seed 4: frozen right after its promotion; the other one (priority 0) still follows the deposed master
        assertThat(SentinelReplicas.countUp(List.of(replica(7001, "s_down,slave,promoted", 100),
                replica(7002, "slave", 0))), is(2));
        // FollowerSentinelTest: a Sentinel that did not lead the failover does not flag it promoted
        assertThat(SentinelReplicas.countUp(List.of(replica(7001, "s_down,slave", 100), replica(7002, "slave", 0))),
                is(2));
    }

    @Test
    void theMastersOwnListNamesReplicasTheSentinelsDoNot() {
        String info = "# Replication\r\nrole:master\r\nconnected_slaves:2\r\n"
                + "slave0:ip=127.0.0.1,port=7001,state=online,offset=10,lag=0\r\n"
                + "slave1:ip=127.0.0.1,port=7003,state=wait_bgsave,offset=0,lag=0\r\nmaster_failover_state:no-failover\r\n";
        assertThat(SentinelReplicas.replicasIn(info), is(Set.of("127.0.0.1:7001", "127.0.0.1:7003")));
        assertThat(SentinelReplicas.replicasIn("# Replication\r\nrole:slave\r\n"), is(Set.of()));
    }

    @Test
    void aReplicaHeldUpThatFollowsAnotherNodeTooLongIsLeftOut() {
        // UnfollowingReplicaTest: it refuses the Sentinels' REPLICAOF and keeps following the dead master;
        // after ten times down-after-milliseconds without a link the Sentinels never promote it
        Map<String, String> stray = new java.util.HashMap<>(replica(7001, "slave", 100));
        stray.put("master-host", "127.0.0.1");
        stray.put("master-port", "7000");
        stray.put("master-link-down-time", "12000");
        Map<String, String> follows = new java.util.HashMap<>(replica(7002, "slave", 100));
        follows.put("master-host", "127.0.0.1");
        follows.put("master-port", "7009");
        follows.put("master-link-down-time", "0");
        assertThat(SentinelReplicas.counted(List.of(stray, follows), "127.0.0.1:7009", 10_000),
                is(Set.of("127.0.0.1:7002")));
        // a replica still following the deposed master with its link up counts (seed 42)
        stray.put("master-link-down-time", "0");
        assertThat(SentinelReplicas.counted(List.of(stray, follows), "127.0.0.1:7009", 10_000).size(), is(2));
    }

    @Test
    void aReplicaThatCanNeverBePromotedChainedBehindAReplicaIsLeftOut() {
        // UnfollowingReplicaTest: it follows the killed master, back now as a replica of the new one
        Map<String, String> chained = new java.util.HashMap<>(replica(7001, "slave", 0));
        chained.put("master-host", "127.0.0.1");
        chained.put("master-port", "7000");
        chained.put("master-link-down-time", "0");
        Map<String, String> back = new java.util.HashMap<>(replica(7000, "slave", 100));
        back.put("master-host", "127.0.0.1");
        back.put("master-port", "7009");
        assertThat(SentinelReplicas.counted(List.of(chained, back), "127.0.0.1:7009", 10_000,
                node -> node.equals("127.0.0.1:7000")), is(Set.of("127.0.0.1:7000")));
        // seed 42: the node it follows still claims to be a master (deposed): it counts
        assertThat(SentinelReplicas.counted(List.of(chained, back), "127.0.0.1:7009", 10_000, node -> false).size(),
                is(2));
    }

    @Test
    void noneListedCountsNone() {
        assertThat(SentinelReplicas.countUp(List.of()), is(0));
    }
}
