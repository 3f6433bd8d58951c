package seckill.reservation;

import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.resps.StreamEntry;
import seckill.redis.CoalescingSettings;
import seckill.reservation.api.PreheatStock;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.ReservationOutcome;
import seckill.reservation.api.ReservationUnavailable;
import seckill.reservation.api.ReserveStock;
import seckill.reservation.redis.StockBuckets;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.instanceOf;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A buyer whose home bucket is dry is served by a donor, and the donor's take is in doubt: the
 * buyer's retry with the same requestId must end with the unit the take got, or, if it got none, a
 * fresh try, never {@code 409 PURCHASE_IN_PROGRESS} until the keys expire. Runs on a redis-server of
 * its own (a {@code CLIENT PAUSE} must not stop anyone else's), started and stopped by PID.
 */
class InDoubtDonorTakeTest {

    private static Process server;
    private static String uri;
    private static JedisPooled outside;

    @BeforeAll
    static void startServer() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        server = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        uri = "redis://127.0.0.1:" + port;
        outside = new JedisPooled(uri);
        long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            try {
                outside.ping();
                break;
            } catch (JedisConnectionException e) {
                if (System.nanoTime() > until) {
                    throw e;
                }
                Thread.onSpinWait();
            }
        }
    }

    @AfterAll
    static void stopServer() throws Exception {
        outside.close();
        ProcessHandle.of(server.pid()).ifPresent(ProcessHandle::destroy);
        server.waitFor();
    }

    /** CLIENT PAUSE WRITE on the server while the take is on its way: it times out, and never ran. */
    @Test
    void aTakeThatTimedOutUnderAPauseIsRetriedFresh() {
        java.util.concurrent.atomic.AtomicBoolean paused = new java.util.concurrent.atomic.AtomicBoolean();
        TestStock stock = reservingStock(new JedisPooled(uri) {
            @Override
            public Object evalsha(String sha, List<String> keys, List<String> args) {
                if (keys.stream().anyMatch(k -> k.endsWith(":served")) && !keys.get(1).endsWith(":buyers") && args.contains("pause-me")
                        && paused.compareAndSet(false, true)) {
                    // the fault from outside: the server stops running writes for longer than the client waits
                    try (redis.clients.jedis.Jedis admin = new redis.clients.jedis.Jedis(
                            redis.clients.jedis.HostAndPort.from(uri.substring("redis://".length())))) {
                        admin.clientPause(3_000, redis.clients.jedis.args.ClientPauseMode.WRITE);
                    }
                }
                return super.evalsha(sha, keys, args);
            }
        });
        try {
            Sale sale = sale(stock, 11);
            assertThrows(ReservationUnavailable.class, () -> stock.reserve(sale.command("pause-me")));
            outside.set("pause-over", "1"); // blocks until the pause ends

            ReservationOutcome retried = stock.reserve(sale.command("pause-me"));
            assertThat(retried.toString(), retried, instanceOf(ReservationOutcome.Reserved.class));
            sale.exactlyOneUnitHeldAs(((ReservationOutcome.Reserved) retried).id());
        } finally {
            stock.releaseLease();
        }
    }

    /** The take ran on the server, its reply was lost (a timeout, a missing replica acknowledgement). */
    @Test
    void aTakeWhoseReplyWasLostIsFoundByTheRetry() {
        java.util.concurrent.atomic.AtomicBoolean lost = new java.util.concurrent.atomic.AtomicBoolean();
        TestStock stock = reservingStock(new JedisPooled(uri) {
            @Override
            public Object evalsha(String sha, List<String> keys, List<String> args) {
                Object reply = super.evalsha(sha, keys, args);
                // a donor step (take.lua, withdraw_take.lua); reserve.lua names the served ids too, after the buyers
                if (keys.stream().anyMatch(k -> k.endsWith(":served")) && !keys.get(1).endsWith(":buyers") && args.contains("lose-reply")
                        && lost.compareAndSet(false, true)) {
                    throw new JedisConnectionException("java.net.SocketTimeoutException: Read timed out");
                }
                return reply;
            }
        });
        try {
            Sale sale = sale(stock, 12);
            ReservationUnavailable failure = assertThrows(ReservationUnavailable.class,
                    () -> stock.reserve(sale.command("lose-reply")));
            assertThat(failure.inDoubt(), is(true));

            ReservationOutcome retried = stock.reserve(sale.command("lose-reply"));
            assertThat(retried.toString(), retried, instanceOf(ReservationOutcome.AlreadyReserved.class));
            sale.exactlyOneUnitHeldAs(((ReservationOutcome.AlreadyReserved) retried).id());
        } finally {
            stock.releaseLease();
        }
    }

    /** Two buckets, the buyer's home one dry: their purchase goes to the donor. */
    private record Sale(long activity, long buyer, StockBuckets keys) {

        ReserveStock command(String requestId) {
            return new ReserveStock(activity, 1, 2, buyer, 1, requestId);
        }

        /** Read from Redis: one unit gone from the donor, one event for the buyer, their record the id. */
        void exactlyOneUnitHeldAs(ReservationId id) {
            assertThat(outside.get(keys.stock(1)), is("4"));
            List<StreamEntry> events = outside.xrange(keys.events(1), (redis.clients.jedis.StreamEntryID) null, null);
            assertThat(events.size(), is(1));
            assertThat(events.getFirst().getFields().get("reservationId"), is(id.toString()));
            assertThat(outside.xlen(keys.events(0)), is(0L));
            assertThat(outside.hget(keys.buyers(0), Long.toString(buyer)), is(id.toString()));
        }
    }

    private static Sale sale(TestStock stock, long salt) {
        long activity = System.currentTimeMillis() % 1_000_000_000L * 100 + salt;
        stock.preheat(new PreheatStock(activity, 1, 10, 2, Instant.now().plusSeconds(600)));
        long buyer = 1;
        while (StockBuckets.homeBucket(buyer, 2) != 0) {
            buyer++;
        }
        StockBuckets keys = StockBuckets.of(activity, 1, 2);
        outside.set(keys.stock(0), "0");
        return new Sale(activity, buyer, keys);
    }

    private static TestStock reservingStock(JedisPooled redis) {
        TestStock stock = TestStock.leased(redis, Clock.systemUTC(), new ReservationSettings(
                "ordering", 1_000, Duration.ofSeconds(30), new CoalescingSettings(false, 32, 0, 1),
                seckill.redis.ReplicaAcks.NONE));
        return stock;
    }
}
