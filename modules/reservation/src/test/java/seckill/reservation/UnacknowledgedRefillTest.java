package seckill.reservation;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPooled;
import redis.embedded.RedisServer;
import seckill.redis.CoalescingSettings;
import seckill.redis.ReplicaAcks;
import seckill.reservation.api.PreheatStock;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.ReservationUnavailable;
import seckill.reservation.api.Restock;
import seckill.reservation.api.RestockOutcome;
import seckill.reservation.redis.RefillScript;
import seckill.reservation.redis.StockBuckets;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A refill is applied under the reservations' replica acknowledgement. Its own master and replica
 * (real redis-server processes on free ports); the replica is frozen (SIGSTOP) with its link up, so
 * the master still counts it connected but it acknowledges nothing: the refill is on the master and
 * reported in doubt, never done. Repeated on another client it finds itself already applied and
 * must still wait for the replica to hold it; once the replica is thawed the repeat is acknowledged,
 * and the units were added once.
 */
class UnacknowledgedRefillTest {

    @Test
    void aRefillNoReplicaAcknowledgedIsNotDoneAndItsRepeatWaitsForTheReplicaToo() throws Exception {
        int masterPort = freePort();
        int replicaPort = freePort();
        RedisServer master = server(masterPort, null);
        RedisServer replica = server(replicaPort, masterPort);
        String uri = "redis://127.0.0.1:" + masterPort;
        try (JedisPooled redis = new JedisPooled(uri); Jedis direct = new Jedis("127.0.0.1", masterPort)) {
            await(() -> direct.info("replication").contains("state=online"));
            TestStock stock = TestStock.leased(redis, Clock.systemUTC(), new ReservationSettings(
                    "ordering", 2_000, Duration.ofSeconds(30), new CoalescingSettings(false, 32, 0, 1),
                    new ReplicaAcks(1, 100)));
            try {
                long activity = 77;
                stock.preheat(new PreheatStock(activity, 1, 5, 1, Instant.now().plusSeconds(600)));
                StockBuckets keys = StockBuckets.of(activity, 1, 1);
                // two units sold (their TTL kept: the refill's keys expire with the stock)
                direct.decrBy(keys.stock(0), 2);
                Restock refill = new Restock(new ReservationId(activity, 1, 0, 123), 9, 1, false);
                // a second client that already knows the script and whose last write the replica holds
                JedisPooled fresh = new JedisPooled(uri);
                RefillScript script = new RefillScript();
                assertThat(script.refill(fresh, keys, new ReservationId(activity, 1, 0, 122), 8, 1, false,
                        new ReplicaAcks(1, 5_000)), is(RestockOutcome.APPLIED));

                long replicaPid = processId(replicaPort);
                signal("STOP", replicaPid);
                try {
                    ReservationUnavailable unacknowledged = assertThrows(ReservationUnavailable.class,
                            () -> stock.restock(refill), "a refill only the master holds is not done");
                    assertThat(unacknowledged.inDoubt(), is(true));
                    assertThat("it is on the master", direct.get(keys.stock(0)), is("5"));
                    // the repeat, on the second client: already applied, still not acknowledged
                    assertThrows(ReplicaAcks.Missing.class, () -> script.refill(fresh, keys, refill.reservation(), 9, 1,
                            false, new ReplicaAcks(1, 100)),
                            "a repeat that found the refill applied claimed an acknowledgement it did not get");
                } finally {
                    signal("CONT", replicaPid);
                    fresh.close();
                }
                await(() -> {
                    try {
                        return stock.restock(refill) == RestockOutcome.ALREADY_APPLIED;
                    } catch (ReservationUnavailable notYet) {
                        return false;
                    }
                });
                assertThat("the units were added once", direct.get(keys.stock(0)), is("5"));
                try (Jedis onReplica = new Jedis("127.0.0.1", replicaPort)) {
                    assertThat(onReplica.get(keys.stock(0)), is("5"));
                }
            } finally {
                stock.releaseLease();
            }
        } finally {
            replica.stop();
            master.stop();
        }
    }

    private static RedisServer server(int port, Integer masterPort) throws IOException {
        var builder = RedisServer.newRedisServer().port(port).bind("127.0.0.1").executableProvider(redis7())
                .setting("dir " + Files.createTempDirectory("seckill-refill")).setting("save \"\"")
                .setting("appendonly no");
        if (masterPort != null) {
            builder.setting("replicaof 127.0.0.1 " + masterPort);
        }
        RedisServer server = builder.build();
        server.start();
        return server;
    }

    /**
     * The host's redis-server when there is one (Redis 7 counts for WAIT only what the connection wrote,
     * the behaviour this test is about; the bundled 6.2 binary counts up to every write of the master).
     */
    private static redis.embedded.core.ExecutableProvider redis7() {
        try {
            return redis.embedded.core.ExecutableProvider.newExecutableInPath("redis-server");
        } catch (java.io.FileNotFoundException none) {
            return redis.embedded.core.ExecutableProvider.newJarResourceProvider();
        }
    }

    private static long processId(int port) {
        try (Jedis jedis = new Jedis("127.0.0.1", port)) {
            return jedis.info("server").lines().filter(l -> l.startsWith("process_id:"))
                    .map(l -> Long.parseLong(l.substring("process_id:".length()).trim())).findFirst().orElseThrow();
        }
    }

    private static void signal(String signal, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        assertThat("kill -" + signal + " " + pid, kill.waitFor(), is(0));
    }

    private static void await(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 30 s");
            }
            Thread.sleep(50);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
