package seckill.reservation.redis;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPooled;
import redis.embedded.RedisServer;
import seckill.redis.ReplicaAcks;
import seckill.reservation.api.BuyerWindow;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.ReservationOutcome;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * An answer built from what an earlier call wrote (ALREADY_RESERVED, or a retried call's RESERVED)
 * claims what a 202 claims: the replicas hold that reservation. {@code WAIT} counts only its own
 * connection's writes, so a call that wrote nothing was "acknowledged" at once by whatever that
 * connection wrote last. Here a master and a replica this test starts: connection B's last write is
 * acknowledged, the replica is frozen (SIGSTOP), connection A reserves (not acknowledged: in doubt),
 * and B's click of the same buyer must not come back as an acknowledged ALREADY_RESERVED (before the
 * fix it did, at once). Once the replica is thawed, the same click is answered, and the replica
 * holds the buyer's record.
 */
class VouchedAnswersTest {

    private static final ReplicaAcks ONE = new ReplicaAcks(1, 200);

    private RedisServer master;
    private RedisServer replica;
    private int masterPort;
    private int replicaPort;
    private long replicaPid;

    @BeforeEach
    void startMasterAndReplica() throws Exception {
        masterPort = freePort();
        replicaPort = freePort();
        master = server(masterPort, null);
        replica = server(replicaPort, masterPort);
        await(() -> {
            try (Jedis jedis = new Jedis("127.0.0.1", masterPort)) {
                return jedis.info("replication").contains("state=online");
            }
        });
        try (Jedis jedis = new Jedis("127.0.0.1", replicaPort)) {
            replicaPid = Long.parseLong(jedis.info("server").lines().filter(l -> l.startsWith("process_id:"))
                    .findFirst().orElseThrow().substring("process_id:".length()).trim());
        }
    }

    @AfterEach
    void stop() throws Exception {
        signal("CONT", replicaPid);
        replica.stop();
        master.stop();
    }

    @Test
    void anAnswerFromAnEarlierReservationWaitsForTheReplicaToHoldIt() throws Exception {
        StockBuckets keys = StockBuckets.of(9901, 1, 1);
        try (JedisPooled a = onOneConnection(); JedisPooled b = onOneConnection()) {
            new PreheatScript().preheat(b, keys, 0, 10, "ordering", Instant.now().plusSeconds(600), 1);
            assertThat("B's last write is on the replica", b.waitReplicas(keys.stock(0), 1, 5_000), is(1L));
            signal("STOP", replicaPid);
            ReservationScript script = new ReservationScript();
            ReservationId first = new ReservationId(9901, 1, 0, 1);
            Instant now = Instant.now();
            assertThrows(ReplicaAcks.Missing.class,
                    () -> script.reserve(a, keys, first, 5, 1, "r", now, ONE, BuyerWindow.NONE));
            // the same buyer again on B, one call and coalesced, and A's call retried as it was
            assertThrows(ReplicaAcks.Missing.class, () -> script.reserve(b, keys, new ReservationId(9901, 1, 0, 2),
                    5, 1, "r", now, ONE, BuyerWindow.NONE));
            assertThrows(ReplicaAcks.Missing.class, () -> script.reserveMany(b, keys, List.of(new ReservationScript.Claim(
                    new ReservationId(9901, 1, 0, 3), 5, 1, "r", BuyerWindow.NONE)), now, ONE));
            assertThrows(ReplicaAcks.Missing.class,
                    () -> script.reserve(b, keys, first, 5, 1, "r", now, ONE, BuyerWindow.NONE));

            signal("CONT", replicaPid);
            assertThat(script.reserve(b, keys, new ReservationId(9901, 1, 0, 4), 5, 1, "r", now, ONE, BuyerWindow.NONE),
                    is(new ReservationOutcome.AlreadyReserved(first)));
            try (Jedis onReplica = new Jedis("127.0.0.1", replicaPort)) {
                assertThat(onReplica.hget(keys.buyers(0), "5"), is(first.toString()));
            }
        }
    }

    private JedisPooled onOneConnection() {
        GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
        pool.setMaxTotal(1);
        pool.setMaxIdle(1);
        return new JedisPooled(pool, "127.0.0.1", masterPort);
    }

    private static RedisServer server(int port, Integer masterPort) throws IOException {
        var builder = RedisServer.newRedisServer().port(port).bind("127.0.0.1")
                .setting("dir " + Files.createTempDirectory("seckill-vouched")).setting("save \"\"")
                .setting("appendonly no");
        if (masterPort != null) {
            builder.setting("replicaof 127.0.0.1 " + masterPort);
        }
        RedisServer server = builder.build();
        server.start();
        return server;
    }

    private static void signal(String signal, long pid) throws Exception {
        new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start().waitFor();
    }

    private static void await(java.util.function.BooleanSupplier condition) throws InterruptedException {
        Instant until = Instant.now().plus(Duration.ofSeconds(30));
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(until)) {
                throw new AssertionError("the replica never came online");
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
