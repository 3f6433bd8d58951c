package seckill.system.faults;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;

import redis.clients.jedis.Protocol;
import seckill.dev.api.DevServers;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.embedded.RedisServer;
import seckill.system.SaleFixture;
import seckill.system.SecondInstance;
import seckill.system.ServiceLog;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * A Redis that may evict the sale's keys cannot keep the service's promises (issue #30, found by the
 * chaos drill's first eviction runs: under {@code allkeys-random} the stock keys and the event streams
 * were evicted, and 28 buyers answered 202 had no order). Every key a reservation relies on carries
 * the activity's TTL, so a {@code volatile-*} policy reaches them as well as an {@code allkeys-*} one:
 * only {@code noeviction} keeps them. The policy is changed from outside on the instance's own
 * {@code redis-server} (memory still far below the limit, so nothing is evicted yet): within a few
 * seconds the instance halts sales naming the policy (readiness down, purchases 503 HALTED, never
 * 202); with {@code noeviction} back, sales resume by themselves and sell. A policy on a server
 * without a memory limit ({@code maxmemory 0}) evicts nothing and stops nothing. Such a halt is not
 * lifted on a policy nobody could read (the Redis refusing the service's {@code INFO}), and an
 * instance running no settlement sweeps halts as well. Each test leaves the server as it found it:
 * {@code noeviction}, no memory limit, {@code INFO} allowed, sales open.
 */
class EvictionPolicyTest extends ServiceTest {

    private static final long SKU = 30_501;
    /** Registered, so it starts (and names its Redis to the service) before the class's container does. */
    @RegisterExtension
    static final OwnServer REDIS = new OwnServer();

    /** A {@code redis-server} of this class's own: it changes the server's eviction policy. */
    static final class OwnServer implements AfterAllCallback {
        int port;
        private RedisServer server;

        OwnServer() {
            IOException last = null;
            for (int attempt = 0; attempt < 3; attempt++) {
                // a free port may be taken by another process before the server binds it: try another
                try (ServerSocket socket = new ServerSocket(0)) {
                    int free = socket.getLocalPort();
                    socket.close();
                    RedisServer started = RedisServer.newRedisServer().port(free).bind("127.0.0.1")
                            .setting("dir " + Files.createTempDirectory("seckill-eviction")).setting("save \"\"")
                            .setting("appendonly no").build();
                    started.start();
                    port = free;
                    server = started;
                    // outranks the environment's Redis
                    System.setProperty("seckill.redis.uri", "redis://127.0.0.1:" + port);
                    return;
                } catch (IOException e) {
                    last = e;
                }
            }
            throw new IllegalStateException("cannot start redis-server", last);
        }

        @Override
        public void afterAll(ExtensionContext context) throws IOException {
            System.clearProperty("seckill.redis.uri");
            server.stop();
        }
    }

    @Inject
    DevServers devServers;

    @Test
    void anEvictingPolicyHaltsSalesUntilNoevictionIsBack() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createOpenActivity(SKU, 20, 1);
        long buyer = activity * 1000;
        assertThat(sale.purchaseRetrying(activity, buyer + 1, SKU, 1, "before").statusCode(), is(202));

        try (Jedis outside = new Jedis("127.0.0.1", REDIS.port)) {
            // without a memory limit (maxmemory 0) Redis never evicts, whatever the policy says: a cache's
            // policy left on a server without a limit must not stop a sale
            outside.configSet("maxmemory-policy", "allkeys-lru");
            try {
                sleep(3_000);
                HttpResponse<String> unlimited = sale.purchase(activity, buyer + 8, SKU, 1, "unlimited");
                assertThat(unlimited.body(), unlimited.statusCode(), is(202));
            } finally {
                outside.configSet("maxmemory-policy", "noeviction");
            }
            outside.configSet("maxmemory", "512mb");
            outside.configSet("maxmemory-policy", "allkeys-random");
            try {
                SaleFixture.await("sales halted, naming the eviction policy", Duration.ofSeconds(10), () -> {
                    String sales = sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/sales"))
                            .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN).GET()).body();
                    return sales.contains("\"state\":\"HALTED\"") && sales.contains("allkeys-random");
                });
                HttpResponse<String> ready = sale.get("/health/ready", null);
                assertThat(ready.body(), ready.statusCode(), is(503));
                assertThat(ready.body(), containsString("maxmemory-policy"));
                for (int i = 2; i < 6; i++) {
                    HttpResponse<String> refused = sale.purchase(activity, buyer + i, SKU, 1, "during-" + i);
                    assertThat(refused.body(), refused.statusCode(), not(is(202)));
                    assertThat(refused.body(), refused.statusCode(), is(503));
                    assertThat(refused.body(), containsString("HALTED"));
                }
                // a volatile-* policy reaches the sale's keys too: they all expire with the activity
                outside.configSet("maxmemory-policy", "volatile-lru");
                sleep(3_000);
                HttpResponse<String> still = sale.purchase(activity, buyer + 6, SKU, 1, "volatile");
                assertThat(still.body(), still.statusCode(), is(503));
                assertThat(still.body(), containsString("HALTED"));
            } finally {
                outside.configSet("maxmemory-policy", "noeviction");
                outside.configSet("maxmemory", "0");
            }
        }
        SaleFixture.await("sales resumed by themselves", Duration.ofSeconds(20), () ->
                sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/sales"))
                        .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN).GET()).body()
                        .contains("\"state\":\"OPEN\""));
        assertThat(sale.purchaseRetrying(activity, buyer + 7, SKU, 1, "after").statusCode(), is(202));
        SaleFixture.await("the three 202s ordered", Duration.ofSeconds(20), () -> sale.orders(activity) == 3);
    }

    /**
     * Halted for {@code allkeys-random}, the Redis then refuses the service's {@code INFO} (an ACL set from
     * outside), the policy unchanged: the halt stays, purchases 503 HALTED, until {@code INFO} answers
     * {@code noeviction} again; then sales resume by themselves and sell.
     */
    @Test
    void aHaltForAnEvictingPolicyStaysWhileThePolicyCannotBeRead() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        SaleFixture.await("sales open", Duration.ofSeconds(20), () -> sales(sale).contains("\"state\":\"OPEN\""));
        long activity = sale.createOpenActivity(SKU + 1, 20, 1);
        long buyer = activity * 1000;
        assertThat(sale.purchaseRetrying(activity, buyer + 1, SKU + 1, 1, "before").statusCode(), is(202));
        try (Jedis outside = new Jedis("127.0.0.1", REDIS.port)) {
            outside.configSet("maxmemory", "512mb");
            outside.configSet("maxmemory-policy", "allkeys-random");
            try {
                SaleFixture.await("sales halted, naming the eviction policy", Duration.ofSeconds(10),
                        () -> sales(sale).contains("\"state\":\"HALTED\"") && sales(sale).contains("allkeys-random"));
                outside.sendCommand(Protocol.Command.ACL, "SETUSER", "default", "-info");
                try {
                    // several eviction and resume checks (2 s apart) with the policy unknown to the service
                    sleep(8_000);
                    assertThat(sales(sale), containsString("\"state\":\"HALTED\""));
                    HttpResponse<String> refused = sale.purchase(activity, buyer + 2, SKU + 1, 1, "unread");
                    assertThat(refused.body(), refused.statusCode(), is(503));
                    assertThat(refused.body(), containsString("HALTED"));
                } finally {
                    outside.sendCommand(Protocol.Command.ACL, "SETUSER", "default", "+info");
                }
            } finally {
                outside.configSet("maxmemory-policy", "noeviction");
                outside.configSet("maxmemory", "0");
            }
        }
        SaleFixture.await("sales resumed by themselves", Duration.ofSeconds(20),
                () -> sales(sale).contains("\"state\":\"OPEN\""));
        assertThat(sale.purchaseRetrying(activity, buyer + 3, SKU + 1, 1, "after").statusCode(), is(202));
        SaleFixture.await("the two 202s ordered", Duration.ofSeconds(20), () -> sale.orders(activity) == 2);
    }

    /**
     * An instance that sells but runs no settlement sweeps ({@code seckill.settlement.enabled=false}, the
     * sweeps left to others) halts on an evicting policy too: 503 HALTED, never 202.
     */
    @Test
    void anInstanceWithoutSweepsHaltsOnAnEvictingPolicy() throws Exception {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        SaleFixture.await("sales open", Duration.ofSeconds(20), () -> sales(sale).contains("\"state\":\"OPEN\""));
        long activity = sale.createOpenActivity(SKU + 2, 20, 1);
        long buyer = activity * 1000;
        try (SecondInstance second = SecondInstance.start(SecondInstance.storesOf(config, devServers), db,
                "seckill.admission.token-required=false", "seckill.settlement.enabled=false")) {
            SaleFixture other = new SaleFixture(second.base(), db);
            assertThat(other.purchaseRetrying(activity, buyer + 1, SKU + 2, 1, "before").statusCode(), is(202));
            try (Jedis outside = new Jedis("127.0.0.1", REDIS.port)) {
                outside.configSet("maxmemory", "512mb");
                outside.configSet("maxmemory-policy", "allkeys-random");
                try {
                    SaleFixture.await("the sweepless instance halted, naming the policy", Duration.ofSeconds(10),
                            () -> sales(other).contains("\"state\":\"HALTED\"") && sales(other).contains("allkeys-random"));
                    HttpResponse<String> refused = other.purchase(activity, buyer + 2, SKU + 2, 1, "evicting");
                    assertThat(refused.body(), refused.statusCode(), is(503));
                    assertThat(refused.body(), containsString("HALTED"));
                } finally {
                    outside.configSet("maxmemory-policy", "noeviction");
                    outside.configSet("maxmemory", "0");
                }
            }
        }
        SaleFixture.await("sales open", Duration.ofSeconds(20), () -> sales(sale).contains("\"state\":\"OPEN\""));
    }

    /**
     * An evicting policy set and set back between two readings (every 2 s) is never seen as a policy,
     * yet the keys it evicted are gone: {@code allkeys-random} under a limit below what is in use, one
     * write (Redis evicts every key it can before refusing it), then {@code noeviction} and no limit
     * again, all within milliseconds, from outside. Redis counts what it evicted ({@code evicted_keys});
     * the instance halts ({@code EVICTION_POLICY}, logged SEVERE) and resumes only through the resume
     * check's reconciliation.
     */
    @Test
    void anEvictionBetweenTwoReadingsHaltsSales() throws Exception {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        SaleFixture.await("sales open", Duration.ofSeconds(20), () -> sales(sale).contains("\"state\":\"OPEN\""));
        long activity = sale.createOpenActivity(SKU + 3, 20, 1);
        long buyer = activity * 1000;
        assertThat(sale.purchaseRetrying(activity, buyer + 1, SKU + 3, 1, "before").statusCode(), is(202));
        SaleFixture.await("the 202 ordered", Duration.ofSeconds(20), () -> sale.orders(activity) == 1);
        // the instance's first reading of a server is its baseline (what was evicted before it is not
        // known): let the 2 s check take it first. A warm JVM got here in under 2 s, and the test failed.
        sleep(2_500);
        try (ServiceLog log = ServiceLog.capture(); Jedis outside = new Jedis("127.0.0.1", REDIS.port)) {
            long dbKeys = outside.dbSize();
            outside.configSet("maxmemory-policy", "allkeys-random");
            outside.configSet("maxmemory", "1");
            try {
                outside.set("seckill-test-eviction-trigger", "x");
            } catch (redis.clients.jedis.exceptions.JedisDataException outOfMemory) {
                // refused once nothing more could be evicted
            } finally {
                outside.configSet("maxmemory", "0");
                outside.configSet("maxmemory-policy", "noeviction");
            }
            assertThat("keys evicted from " + dbKeys, outside.dbSize() < dbKeys, is(true));
            // halted for it, whichever 2 s check read it first (the eviction check, or the resume check
            // that reads the policy before anything else); the state says so either way
            try {
                SaleFixture.await("sales halted for the eviction", Duration.ofSeconds(8),
                        () -> sales(sale).contains("EVICTION_POLICY"));
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                throw new AssertionError("not halted for the eviction; sales: " + sales(sale) + "; log: " + log.alarming(), e);
            }
        }
        SaleFixture.await("sales resumed by themselves", Duration.ofSeconds(20),
                () -> sales(sale).contains("\"state\":\"OPEN\""));
    }

    private static String sales(SaleFixture sale) {
        return sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/sales"))
                .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN).GET()).body();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
