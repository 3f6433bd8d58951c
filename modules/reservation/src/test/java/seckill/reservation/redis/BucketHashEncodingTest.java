package seckill.reservation.redis;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import seckill.redis.ReplicaAcks;
import seckill.reservation.TestRedis;
import seckill.reservation.api.BuyerWindow;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.ReservationOutcome;
import seckill.reservation.api.RestoreStock;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

/**
 * The hashes a reservation reads by field (the bucket's buyers, its minted ids, a period's windows) are
 * hashtables from their first field. Redis keeps a hash of up to 512 short fields as a listpack, which
 * it scans from the start for every field asked: a sale of a few hundred units, or a window period's
 * first 512 buyers, cost each buyer a scan (a refusal in a sold-out sale of 500 units 6.8-8.1 µs against
 * 3.3-3.5 µs, issue #35's ninth step). Read from Redis' own {@code OBJECT ENCODING}.
 */
class BucketHashEncodingTest {

    private static final AtomicLong ACTIVITY = new AtomicLong(System.currentTimeMillis() % 1_000_000_000L * 10 + 7);
    @RegisterExtension
    static final TestRedis SERVER = new TestRedis();
    private final Instant now = Instant.now();
    private final ReservationScript script = new ReservationScript();

    private StockBuckets preheated(long activity, long stock) {
        StockBuckets keys = StockBuckets.of(activity, 1, 1);
        new PreheatScript().preheat(SERVER.client(), keys, 0, stock, "ordering", now.plusSeconds(600), 40);
        return keys;
    }

    /** A SKU of two buckets of 5 units each, preheated: a donor (bucket 1) for takes. */
    private StockBuckets twoBuckets(long activity) {
        StockBuckets keys = StockBuckets.of(activity, 1, 2);
        for (int b = 0; b < 2; b++) {
            new PreheatScript().preheat(SERVER.client(), keys, b, 5, "ordering", now.plusSeconds(600), 40);
        }
        return keys;
    }

    private static String encoding(String key) {
        return SERVER.client().objectEncoding(key);
    }

    @Test
    void aPreheatedBucketsBuyersAreAHashtableAndItsMintedIdsOneFromTheFirstReservation() {
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = preheated(activity, 500);
        assertThat(encoding(keys.buyers(0)), is("hashtable"));
        ReservationId id = new ReservationId(activity, 1, 0, 1);
        ReservationOutcome outcome = script.reserve(SERVER.client(), keys, id, 41, 1, "a", now, ReplicaAcks.NONE,
                BuyerWindow.NONE);
        assertThat(outcome, is(new ReservationOutcome.Reserved(id, 499)));
        assertThat(SERVER.client().hget(keys.buyers(0), "41"), is(id.toString()));
        assertThat(SERVER.client().hget(keys.served(0), id.toString()), is("41"));
        assertThat(encoding(keys.buyers(0)), is("hashtable"));
        assertThat(encoding(keys.served(0)), is("hashtable"));
        // the minted ids go with the bucket: the stock's expiry, given by the reservation that made them
        assertThat(SERVER.client().pttl(keys.served(0)), greaterThan(0L));
        assertThat(SERVER.client().pttl(keys.served(0)), lessThanOrEqualTo(SERVER.client().pttl(keys.stock(0)) + 1000));
        // and through a coalesced call, in a bucket of its own
        long other = ACTIVITY.incrementAndGet();
        StockBuckets many = preheated(other, 500);
        script.reserveMany(SERVER.client(), many, List.of(
                new ReservationScript.Claim(new ReservationId(other, 1, 0, 1), 7, 1, "a", BuyerWindow.NONE),
                new ReservationScript.Claim(new ReservationId(other, 1, 0, 2), 8, 1, "b", BuyerWindow.NONE)),
                now, ReplicaAcks.NONE);
        assertThat(encoding(many.served(0)), is("hashtable"));
        assertThat(SERVER.client().pttl(many.served(0)), greaterThan(0L));
    }

    @Test
    void theMintedIdsATakeMakesAreAHashtable() {
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = twoBuckets(activity);
        ReservationId id = new ReservationId(activity, 1, 1, 9);
        assertThat(new BucketScripts().take(SERVER.client(), keys, id, 21, 1, "t", now, ReplicaAcks.NONE),
                is(List.of("RESERVED", id.toString(), "4")));
        assertThat(encoding(keys.served(1)), is("hashtable"));
        assertThat(SERVER.client().hget(keys.served(1), id.toString()), is("21"));
    }

    @Test
    void theMintedIdsAWithdrawalMakesAreAHashtable() {
        // the second hostile review: a withdrawn id (a donor take in doubt) made the minted ids with their
        // expiry and no placeholder, and the takes and reservations after it then left them a listpack
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = twoBuckets(activity);
        BucketScripts scripts = new BucketScripts();
        ReservationId doubted = new ReservationId(activity, 1, 1, 9);
        assertThat(scripts.withdraw(SERVER.client(), keys, doubted, 21, ReplicaAcks.NONE), is("WITHDRAWN"));
        ReservationId id = new ReservationId(activity, 1, 1, 10);
        assertThat(scripts.take(SERVER.client(), keys, id, 21, 1, "t", now, ReplicaAcks.NONE),
                is(List.of("RESERVED", id.toString(), "4")));
        assertThat(encoding(keys.served(1)), is("hashtable"));
        assertThat(SERVER.client().hget(keys.served(1), doubted.toString()), is("withdrawn"));
        assertThat(SERVER.client().pttl(keys.served(1)), greaterThan(0L));
    }

    @Test
    void aPeriodsWindowHashIsAHashtableFromTheCallThatOpensIt() {
        long activity = ACTIVITY.incrementAndGet();
        // one unit: buyer 7 reserves (a reserving attempt writes no window), buyer 8's attempt opens one
        StockBuckets keys = preheated(activity, 1);
        BuyerWindow onePer4s = new BuyerWindow(1, 4000);
        ReservationId late = new ReservationId(activity, 1, 0, 2);
        script.reserveMany(SERVER.client(), keys, List.of(
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 1), 7, 1, "a", onePer4s),
                new ReservationScript.Claim(late, 8, 1, "b", onePer4s)),
                now, ReplicaAcks.NONE);
        String hash = keys.windows(0, 4000, Math.floorDiv(now.toEpochMilli(), 4000L));
        assertThat(encoding(hash), is("hashtable"));
        assertThat(SERVER.client().hget(hash, "8"), is(now.toEpochMilli() + ",1," + late + ","));
        assertThat(SERVER.client().pttl(hash), greaterThan(0L));
        assertThat(SERVER.client().pttl(hash), lessThanOrEqualTo(3 * 4000L));
    }

    @Test
    void aRestoredBucketsBuyersAreAHashtable() {
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = StockBuckets.of(activity, 1, 1);
        RestoreStock.Outcome outcome = new RestoreScript().restore(SERVER.client(), keys, 0, 7, 0, List.of(), 0,
                List.of(new RestoreStock.Holder(51, new ReservationId(activity, 1, 0, 1).toString()),
                        new RestoreStock.Holder(52, new ReservationId(activity, 1, 0, 2).toString())),
                "ordering", now.plusSeconds(600), 41);
        assertThat(outcome, is(RestoreStock.Outcome.RESTORED));
        assertThat(encoding(keys.buyers(0)), is("hashtable"));
        assertThat(SERVER.client().hget(keys.buyers(0), "52"), is(new ReservationId(activity, 1, 0, 2).toString()));
    }
}
