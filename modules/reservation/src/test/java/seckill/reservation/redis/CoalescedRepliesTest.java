package seckill.reservation.redis;

import java.io.IOException;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.UnifiedJedis;
import seckill.reservation.TestRedis;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.ReservationOutcome;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/** One buyer's unreadable reply in a coalesced call fails that buyer only. */
class CoalescedRepliesTest {

    private static TestRedis server;
    private static UnifiedJedis redis;

    @BeforeAll
    static void redis() throws IOException {
        server = new TestRedis();
        redis = server.client();
    }

    @AfterAll
    static void stop() throws IOException {
        server.close();
    }

    @Test
    void anUnreadableRecordFailsItsBuyerAndNoOther() {
        long activity = System.currentTimeMillis() % 1_000_000_000L * 10 + 9;
        StockBuckets keys = StockBuckets.of(activity, 1, 1);
        new PreheatScript().preheat(redis, keys, 0, 5, "ordering", Instant.now().plusSeconds(600), 1);
        redis.hset(keys.buyers(0), "61", "not-a-reservation-id");
        List<ReservationOutcome> outcomes = new ReservationScript().reserveMany(redis, keys, List.of(
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 1), 61, 1, "a"),
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 2), 62, 1, "b")), Instant.now());
        assertThat(outcomes.get(0), is(new ReservationOutcome.Unreadable("ALREADY_RESERVED not-a-reservation-id")));
        assertThat(outcomes.get(1), is(new ReservationOutcome.Reserved(new ReservationId(activity, 1, 0, 2), 4)));
    }
}
