package seckill.system.chaos;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import seckill.dev.api.DevServers;
import seckill.chaos.api.Checker;
import seckill.chaos.api.FaultKind;
import seckill.chaos.api.History;
import seckill.chaos.api.HistoryEntry;
import seckill.chaos.api.OpKind;
import seckill.chaos.api.Promise;
import seckill.chaos.api.Verdict;
import seckill.drill.chaos.ChaosOptions;
import seckill.drill.chaos.ChaosPlan;
import seckill.drill.chaos.ChaosRun;
import seckill.drill.chaos.PlanShape;
import seckill.drill.chaos.Topology;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * The chaos drill end to end, CI-sized: seed 42, one minute, two instances as processes, a single
 * Redis of the run's own, the database SECKILL_DB_* names. Every fault kind is injected at least
 * once, overlapping; the checker must find every promise held. The history is then judged again
 * without Redis (from the shelf it recorded): clean; and with one planted lost 202: a violation.
 * {@code -Dchaos.topology=cluster} (or {@code sentinel}) runs the same test on a Redis Cluster of three
 * masters with a replica each (or a Sentinel group) the run starts itself, 30 s by default
 * ({@code -Dchaos.seconds=S}), with master kills and frozen replicas among the faults: what CI's cluster
 * phase runs. There every killed master must also have come back as a replica in sync (on the cluster,
 * of the node that serves its shard now), as the history's fault lines say. On every topology the key
 * loss and the eviction must have been carried out (behind Sentinel and on the cluster, the eviction's
 * limit set on the nodes and put back on them).
 */
class ChaosDrillTest {

    /** 42 in CI; {@code -Dchaos.seed=S} runs another seed through the same test. */
    private static final long SEED = Long.getLong("chaos.seed", 42);

    /** {@code single} unless {@code -Dchaos.topology=sentinel|cluster}. */
    private static final Topology TOPOLOGY = Topology.parse(System.getProperty("chaos.topology", "single"));

    /** A minute on a single Redis; 30 s on the others (their start and heal take longer), unless {@code -Dchaos.seconds}. */
    private static final long SECONDS = Long.getLong("chaos.seconds", TOPOLOGY == Topology.SINGLE ? 60 : 30);

    @Test
    void aSeededRunHoldsEveryPromiseAndAPlantedViolationIsCaught() throws Exception {
        Path history = Path.of("target", "chaos", "chaos-" + SEED + (TOPOLOGY == Topology.SINGLE ? ""
                : "-" + TOPOLOGY.label()) + ".jsonl");
        Files.createDirectories(history.getParent());
        ChaosOptions options = new ChaosOptions(SEED, Duration.ofSeconds(SECONDS), 2, history, Duration.ofSeconds(60),
                Duration.ofSeconds(90), TOPOLOGY);
        // the stores the tests are given, else the embedded ones (as every other test)
        DevServers embedded = new DevServers(true);
        String url = System.getenv("SECKILL_DB_URL");
        ChaosRun.Database database = url == null || url.isBlank()
                ? new ChaosRun.Database(embedded.jdbcUrl(), "root", "")
                : new ChaosRun.Database(url, env("SECKILL_DB_USER", "root"), env("SECKILL_DB_PASSWORD", ""));
        Verdict verdict = new ChaosRun(options, PlanShape.standard(), database, Clock.systemUTC(), System::nanoTime,
                System.out).run();

        assertThat(verdict.report(), verdict.clean(), is(true));
        // every killed master came back as a replica in sync; on the cluster, of the node serving its shard now
        for (HistoryEntry.FaultEvent kill : History.read(history).faults().stream()
                .filter(f -> f.kind() == FaultKind.MASTER_KILL).toList()) {
            String target = kill.target();
            assertThat(target, target.contains("a replica in sync") && !target.contains("NOT ")
                    && !target.contains("NO failover"), is(true));
            Matcher cluster = Pattern.compile("master_port:(\\d+).*served by .*\\(port (\\d+)\\)").matcher(target);
            if (TOPOLOGY == Topology.CLUSTER) {
                assertThat(target, cluster.find() && cluster.group(1).equals(cluster.group(2)), is(true));
            }
        }

        // the key loss and the eviction were carried out, not merely scheduled (every topology); behind Sentinel
        // and on the cluster the eviction's limit was set on the nodes and put back on them
        for (FaultKind kind : List.of(FaultKind.KEY_LOSS, FaultKind.EVICTION)) {
            List<String> targets = History.read(history).faults().stream().filter(f -> f.kind() == kind)
                    .map(HistoryEntry.FaultEvent::target).toList();
            assertThat(kind + " " + targets, targets.size(), is(1));
            assertThat(targets.toString(), targets.getFirst().contains("failed"), is(false));
            if (kind == FaultKind.EVICTION && TOPOLOGY != Topology.SINGLE) {
                assertThat(targets.toString(), targets.getFirst().contains("maxmemory ")
                        && targets.getFirst().contains("put back: noeviction, maxmemory 0 on "), is(true));
            }
        }

        // every forgery of a payment callback was sent (NO_FORGED_PAYMENT judged their answers and the ledger);
        // how many get an answer depends on the faults and the machine (instances down for a KILL's restart)
        List<HistoryEntry.Operation> forged = History.read(history).operations().stream()
                .filter(op -> op.kind() == OpKind.HOSTILE_PAYMENT).toList();
        assertThat(forged.stream().map(HistoryEntry.Operation::forged).distinct().sorted().toList(),
                is(ChaosPlan.FORGERIES.stream().sorted().toList()));
        assertThat(verdict.of(Promise.NO_FORGED_PAYMENT).held(), is(true));

        // the same history with one 202 whose reservation the ledger never saw: the checker must say so
        History run = History.read(history);
        HistoryEntry.Operation some = run.operations().stream().filter(op -> op.kind() == OpKind.PURCHASE)
                .findFirst().orElseThrow();
        List<HistoryEntry> planted = new ArrayList<>(run.entries());
        planted.add(new HistoryEntry.Operation(999_999, some.step(), OpKind.PURCHASE, some.instance(), some.buyer(),
                some.activity(), some.sku(), "planted", some.sendNanos(), some.sendWall(), some.answerNanos(),
                some.answerWall(), 202, "{\"reservationId\":\"never-made\",\"status\":\"QUEUED\"}", null, null));
        // the run's Redis is gone: the checker judges the shelf the history recorded, as a later re-judgement does
        try (Connection ledger = DriverManager.getConnection(database.url(), database.user(), database.password())) {
            assertThat(new Checker(ledger, null, 5).judge(run).clean(), is(true));
            Verdict again = new Checker(ledger, null, 5).judge(new History(planted));
            assertThat(again.of(Promise.RESERVATION_SETTLED).held(), is(false));
            assertThat(again.exitCode(), is(1));
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
