package seckill.system.faults;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import io.helidon.microprofile.testing.junit5.AddConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.HostAndPort;
import seckill.drill.api.InvariantCheck;
import seckill.system.SaleFixture;
import seckill.system.SentinelTopology;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * The last replica gone (issue 29, item 7): a master with one replica behind three Sentinels, one
 * replica required ({@code min-replica-acks} 1, the Sentinel default). The master is SIGKILLed and
 * its replica promoted, with no replica of its own. Buyers keep clicking: the instance must halt
 * once, saying what is missing ({@code NO_REPLICA}: 0 of 1 required connected) in readiness and the
 * operations view, and stay halted (no "resumed, HALTED" every resume check). When the old master
 * comes back as a replica ({@code redis-server} with {@code replicaof}), sales resume by themselves
 * and the rest is sold. Before that, the operator consciously accepts no acknowledgement through the
 * hot switch ({@code seckill.redis.min-replica-acks: 0} in {@code switches.yaml}): sales resume and
 * sell without a replica, and halt again, saying so, when the switch goes back to 1. Every reservation a buyer was shown is exactly one order, the stock is sold
 * exactly, read from the ledger and Redis.
 */
@AddConfig(key = "seckill.redis.timeout-millis", value = "1000")
@AddConfig(key = "seckill.redis.replica-ack-timeout-millis", value = "50")
class LastReplicaGoneTest extends ServiceTest {

    private static final Path CONFIG_DIR;

    static {
        try {
            CONFIG_DIR = Files.createTempDirectory("seckill-switches");
            // the operator's hot switch; read by the switches file source when this class's container starts
            switches("seckill.redis.min-replica-acks: 1\n");
        } catch (Exception e) {
            throw new ExceptionInInitializerError(e);
        }
        System.setProperty("seckill.config.dir", CONFIG_DIR.toString());
    }

    @AfterAll
    static void forgetTheSwitches() {
        System.clearProperty("seckill.config.dir");
    }

    @RegisterExtension
    static final SentinelTopology TOPOLOGY = new SentinelTopology(1);

    private static final long SKU = 7321;
    private static final int STOCK = 60;
    private static final int EARLY_BUYERS = 20;
    private static final Duration WATCHED = Duration.ofSeconds(12);

    /** Counts the instance's own halt and resume transitions, as an operator reads them in the log. */
    static final class Transitions extends Handler {
        final AtomicInteger halts = new AtomicInteger();
        final AtomicInteger resumes = new AtomicInteger();

        @Override
        public void publish(LogRecord record) {
            String message = record.getMessage();
            if (message == null) {
                return;
            }
            if (message.startsWith("sales HALTED")) {
                halts.incrementAndGet();
            } else if (message.startsWith("sales resumed")) {
                resumes.incrementAndGet();
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }

    @Test
    void theLastReplicaGoneHaltsOnceSayingSoAndResumesWhenOneIsBack() throws Exception {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createOpenActivity(SKU, STOCK, 1);
        Map<Long, String> reserved = new ConcurrentHashMap<>();
        for (int i = 1; i <= EARLY_BUYERS; i++) {
            long user = activity * 1000 + i;
            var answer = sale.purchaseRetrying(activity, user, SKU, 1, "g-" + user);
            assertThat(answer.body(), answer.statusCode(), is(202));
            reserved.put(user, SaleFixture.field(answer.body(), "reservationId"));
        }
        SaleFixture.await("the early buyers ordered", Duration.ofSeconds(30), () -> sale.orders(activity) == EARLY_BUYERS);

        Logger admissionLog = Logger.getLogger("seckill.admission.AdmittingPurchases");
        Transitions transitions = new Transitions();
        admissionLog.addHandler(transitions);
        try {
            HostAndPort oldMaster = TOPOLOGY.master();
            ProcessHandle.of(SentinelTopology.processId(oldMaster)).orElseThrow().destroyForcibly();
            SaleFixture.await("the replica promoted", Duration.ofSeconds(30), () -> !TOPOLOGY.master().equals(oldMaster));

            // buyers keep clicking on the new master, which has no replica: each attempt once, no retry
            Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
            int next = EARLY_BUYERS;
            Instant until = Instant.now().plus(WATCHED);
            String overviewReason = null;
            String readiness = null;
            while (Instant.now().isBefore(until)) {
                long user = activity * 1000 + ++next;
                HttpResponse<String> answer = sale.purchase(activity, user, SKU, 1, "g-" + user);
                statuses.computeIfAbsent(answer.statusCode(), s -> new AtomicInteger()).incrementAndGet();
                assertThat("no replica acknowledged: never a 202", answer.statusCode(), not(is(202)));
                overviewReason = sale.send(java.net.http.HttpRequest.newBuilder(
                                sale.base.resolve("/api/v1/admin/overview"))
                        .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN).GET()).body();
                readiness = sale.get("/health/ready", null).body();
                Thread.sleep(100);
            }
            assertThat("halts while the new master has no replica (answers " + statuses + ")",
                    transitions.halts.get(), is(1));
            assertThat("resumes while the new master has no replica", transitions.resumes.get(), is(0));
            assertThat(overviewReason, containsString("\"sales\":{\"state\":\"HALTED\""));
            assertThat(overviewReason, containsString("NO_REPLICA: 0 of 1 required replica(s) connected"));
            assertThat(readiness, containsString("\"status\":\"DOWN\""));
            assertThat(readiness, containsString("NO_REPLICA: 0 of 1 required replica(s) connected"));

            // the operator consciously accepts no acknowledgement: sales resume and sell on the lone master
            switches("seckill.redis.min-replica-acks: 0\n");
            SaleFixture.await("sales resumed on the operator's switch", Duration.ofSeconds(30), () -> open(sale));
            for (int i = 0; i < 5; i++) {
                long user = activity * 1000 + ++next;
                var answer = sale.purchaseRetrying(activity, user, SKU, 1, "g-" + user);
                assertThat(answer.body(), answer.statusCode(), is(202));
                reserved.put(user, SaleFixture.field(answer.body(), "reservationId"));
            }
            // and takes it back: the next reservation meets the missing replica and halts, saying so
            switches("seckill.redis.min-replica-acks: 1\n");
            Instant giveUp = Instant.now().plusSeconds(30);
            while (open(sale)) {
                assertThat("halted again after the switch went back", Instant.now().isBefore(giveUp), is(true));
                long user = activity * 1000 + ++next;
                sale.purchase(activity, user, SKU, 1, "g-" + user);
                Thread.sleep(100);
            }
            assertThat(salesState(sale), containsString("NO_REPLICA: 0 of 1 required replica(s) connected"));
            assertThat(transitions.halts.get(), is(2));
            assertThat(transitions.resumes.get(), is(1));

            // the old master comes back, as a replica of the new one
            TOPOLOGY.restartAsReplica(oldMaster);
            SaleFixture.await("a replica online again", Duration.ofSeconds(60), () -> TOPOLOGY.onlineReplicas() == 1);
            SaleFixture.await("sales resumed by themselves", Duration.ofSeconds(60), () -> open(sale));
            assertThat(transitions.halts.get(), is(2));
            assertThat(transitions.resumes.get(), is(2));

            // the rest is sold; a buyer answered "in doubt" before retries with the same requestId
            for (long user = activity * 1000 + EARLY_BUYERS + 1; reserved.size() < STOCK || user <= activity * 1000 + next;
                 user++) {
                var answer = sale.purchaseRetrying(activity, user, SKU, 1, "g-" + user);
                long buyer = user;
                sale.reservationShownBy(answer, user).ifPresent(id -> reserved.put(buyer, id));
                assertThat("buyers beyond the stock", user < activity * 1000 + next + STOCK, is(true));
            }
        } finally {
            admissionLog.removeHandler(transitions);
        }
        SaleFixture.await("every reservation ordered", Duration.ofSeconds(60), () -> sale.orders(activity) == STOCK);
        for (var entry : reserved.entrySet()) {
            assertThat(sale.ordersOf(entry.getValue(), entry.getKey()), is(1L));
        }
        assertThat(sale.count("SELECT COUNT(DISTINCT user_id) FROM seckill_order WHERE activity_id = ?", activity),
                is((long) STOCK));
        assertThat(sale.available(activity, SKU), is(0L));
        assertThat(InvariantCheck.violations(new InvariantCheck(db, redis).audit(activity)), empty());
        String report = sale.admin().reconcile(activity);
        assertThat(report, containsString("\"state\":\"CLEAN\""));
    }

    private static String salesState(SaleFixture sale) {
        return sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/sales"))
                .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN).GET()).body();
    }

    private static boolean open(SaleFixture sale) {
        return salesState(sale).equals("{\"state\":\"OPEN\"}");
    }

    /** Rewrites the switches file as an operator does (atomically, looking newer than the last). */
    private static void switches(String yaml) throws Exception {
        Path file = CONFIG_DIR.resolve("switches.yaml");
        Path temp = CONFIG_DIR.resolve("switches.yaml.tmp");
        Files.writeString(temp, yaml);
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() + (long) (Math.random() * 1000)));
    }
}
