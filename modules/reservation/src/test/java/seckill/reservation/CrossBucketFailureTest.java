package seckill.reservation;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.NoSuchElementException;

import seckill.redis.CoalescingSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.exceptions.JedisException;
import seckill.reservation.api.PreheatStock;
import seckill.reservation.api.ReservationOutcome;
import seckill.reservation.api.ReservationUnavailable;
import seckill.reservation.api.ReserveStock;
import seckill.reservation.redis.StockBuckets;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.instanceOf;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The Redis client's pool runs dry right after a buyer's claim in their home bucket, before the
 * donor's take is sent: nothing happened, so the buyer must not be left locked out by the claim.
 * The pool exhaustion is injected at the client (the take's call never leaves this process).
 */
class CrossBucketFailureTest {

    @RegisterExtension
    static final TestRedis SERVER = new TestRedis();
    private static volatile boolean poolDry;

    @Test
    void aPoolExhaustedAfterTheClaimReleasesItAndTheBuyerCanBuy() {
        TestStock stock = reservingStock(new JedisPooled(SERVER.singleNodeUri()) {
            @Override
            public Object evalsha(String sha, List<String> keys, List<String> args) {
                // a donor step; reserve.lua names the served ids too, after the buyers
                if (poolDry && keys.stream().anyMatch(k -> k.endsWith(":served")) && !keys.get(1).endsWith(":buyers")) {
                    throw new JedisException("Could not get a resource from the pool",
                            new NoSuchElementException("Timeout waiting for idle object"));
                }
                return super.evalsha(sha, keys, args);
            }
        });
        try {
            long activity = System.currentTimeMillis() % 1_000_000_000L * 10 + 3;
            stock.preheat(new PreheatStock(activity, 1, 10, 2, Instant.now().plusSeconds(600)));
            long buyer = 1;
            while (StockBuckets.homeBucket(buyer, 2) != 0) {
                buyer++;
            }
            StockBuckets keys = StockBuckets.of(activity, 1, 2);
            // the buyer's home bucket is dry: the purchase must go to the donor
            SERVER.client().set(keys.stock(0), "0");

            poolDry = true;
            long user = buyer;
            ReservationUnavailable failure = assertThrows(ReservationUnavailable.class,
                    () -> stock.reserve(new ReserveStock(activity, 1, 2, user, 1, "first")));
            assertThat("nothing was sent: not in doubt", failure.inDoubt(), is(false));
            assertThat("the claim is released", SERVER.client().hget(keys.buyers(0), Long.toString(user)), nullValue());

            poolDry = false;
            ReservationOutcome retried = stock.reserve(new ReserveStock(activity, 1, 2, user, 1, "again"));
            assertThat(retried, instanceOf(ReservationOutcome.Reserved.class));
            assertThat(SERVER.client().get(keys.stock(1)), is("4"));
        } finally {
            stock.releaseLease();
        }
    }

    private static TestStock reservingStock(JedisPooled redis) {
        TestStock stock = TestStock.leased(redis, Clock.systemUTC(), new ReservationSettings(
                "ordering", 2_000, java.time.Duration.ofSeconds(30), new CoalescingSettings(false, 32, 0, 1),
                seckill.redis.ReplicaAcks.NONE));
        return stock;
    }
}
