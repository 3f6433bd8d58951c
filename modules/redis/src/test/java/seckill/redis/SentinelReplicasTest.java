package seckill.redis;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/** Which of {@code SENTINEL REPLICAS}' entries count as up: what {@code min-replica-acks: all} waits for. */
class SentinelReplicasTest {

    @Test
    void everyReplicaTheSentinelHoldsUpCountsWhateverItFollowsOrItsPriority() {
        // the deposed master's case: one replica promoted elsewhere is no longer listed, the one still
        // following the old master and one never to be promoted (priority 0) are up: both count
        List<Map<String, String>> listed = List.of(
                Map.of("name", "127.0.0.1:7001", "flags", "slave", "slave-priority", "0"),
                Map.of("name", "127.0.0.1:7002", "flags", "slave", "master-link-status", "err"),
                Map.of("name", "127.0.0.1:7003", "flags", "s_down,slave,disconnected"),
                Map.of("name", "127.0.0.1:7004", "flags", "disconnected,slave"),
                Map.of("name", "127.0.0.1:7005", "flags", "o_down,slave"));
        assertThat(SentinelReplicas.countUp(listed), is(2));
    }

    @Test
    void theReplicaAFailoverPromotedCountsEvenWhileDown() {
        // seed 4 on sentinel: the promoted replica frozen before it reported its new role; the other one
        // still follows the deposed master, whose writes it acknowledges: one ack must not be enough
        List<Map<String, String>> listed = List.of(
                Map.of("name", "127.0.0.1:7001", "flags", "s_down,slave,promoted"),
                Map.of("name", "127.0.0.1:7002", "flags", "slave"));
        assertThat(SentinelReplicas.countUp(listed), is(2));
    }

    @Test
    void noneListedCountsNone() {
        assertThat(SentinelReplicas.countUp(List.of()), is(0));
    }
}
