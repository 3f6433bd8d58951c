package seckill.reservation.redis;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import seckill.reservation.TestRedis;
import seckill.reservation.api.BucketSnapshot;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.ReservationOutcome;
import seckill.reservation.api.RestockOutcome;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * A client that lost a reply retries the call (the cluster client does by default): every script
 * run twice with identical arguments must answer the same and change Redis once. Runs on the Redis
 * of {@link TestRedis}, the three-master cluster in CI's second phase.
 */
class ScriptsRunTwiceTest {

    private static final AtomicLong ACTIVITY = new AtomicLong(System.currentTimeMillis() % 1_000_000_000L * 10);
    @RegisterExtension
    static final TestRedis SERVER = new TestRedis();
    private final Instant now = Instant.now();
    private final Instant expireAt = now.plusSeconds(600);

    @Test
    void preheatAndReserveTwiceTakeOneUnitAndRecordOneEvent() {
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = StockBuckets.of(activity, 1, 1);
        PreheatScript preheat = new PreheatScript();
        preheat.preheat(SERVER.client(), keys, 0, 10, "ordering", expireAt, 42);
        ReservationId id = new ReservationId(activity, 1, 0, 7);
        ReservationScript script = new ReservationScript();
        ReservationOutcome first = script.reserve(SERVER.client(), keys, id, 5, 1, "r5", now, seckill.redis.ReplicaAcks.NONE, seckill.reservation.api.BuyerWindow.NONE);
        ReservationOutcome second = script.reserve(SERVER.client(), keys, id, 5, 1, "r5", now, seckill.redis.ReplicaAcks.NONE, seckill.reservation.api.BuyerWindow.NONE);
        assertThat(first, is(new ReservationOutcome.Reserved(id, 9)));
        assertThat(second, is(first));
        assertThat(SERVER.client().get(keys.stock(0)), is("9"));
        assertThat(SERVER.client().xlen(keys.events(0)), is(1L));
        preheat.preheat(SERVER.client(), keys, 0, 10, "ordering", expireAt, 42);
        assertThat("a retried preheat wiped nothing", SERVER.client().get(keys.stock(0)), is("9"));
        assertThat(SERVER.client().xlen(keys.events(0)), is(1L));
    }

    @Test
    void aCoalescedCallRunTwiceAnswersEveryBuyerTheSame() {
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = StockBuckets.of(activity, 1, 1);
        new PreheatScript().preheat(SERVER.client(), keys, 0, 10, "ordering", expireAt, 43);
        List<ReservationScript.Claim> claims = List.of(
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 1), 11, 1, "a", seckill.reservation.api.BuyerWindow.NONE),
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 2), 12, 2, "b", seckill.reservation.api.BuyerWindow.NONE));
        ReservationScript script = new ReservationScript();
        List<ReservationOutcome> first = script.reserveMany(SERVER.client(), keys, claims, now, seckill.redis.ReplicaAcks.NONE);
        List<ReservationOutcome> second = script.reserveMany(SERVER.client(), keys, claims, now, seckill.redis.ReplicaAcks.NONE);
        // the same verdicts and ids; "remaining" is the stock as it is now, which the first answer of buyer 1 predates
        assertThat(second, is(List.of(new ReservationOutcome.Reserved(new ReservationId(activity, 1, 0, 1), 7),
                new ReservationOutcome.Reserved(new ReservationId(activity, 1, 0, 2), 7))));
        assertThat(first.get(1), is(new ReservationOutcome.Reserved(new ReservationId(activity, 1, 0, 2), 7)));
        assertThat(SERVER.client().get(keys.stock(0)), is("7"));
        // recorded once: one entry for the first run's two reservations, none for the re-run
        assertThat(SERVER.client().xlen(keys.events(0)), is(1L));
        assertThat(seckill.reservation.TestRedis.recorded(SERVER.client(), keys.events(0)), is(List.of(
                new ReservationId(activity, 1, 0, 1).toString(), new ReservationId(activity, 1, 0, 2).toString())));
    }

    @Test
    void claimTakeAndSettleTwiceTakeOneUnitFromTheDonor() {
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = StockBuckets.of(activity, 1, 3);
        PreheatScript preheat = new PreheatScript();
        for (int b = 0; b < 3; b++) {
            preheat.preheat(SERVER.client(), keys, b, 5, "ordering", expireAt, 44);
        }
        BucketScripts scripts = new BucketScripts();
        assertThat(scripts.claim(SERVER.client(), keys, 0, 21, "pending:9"), is(""));
        assertThat("a retried claim is not someone else's reservation", scripts.claim(SERVER.client(), keys, 0, 21, "pending:9"),
                is(""));
        ReservationId id = new ReservationId(activity, 1, 2, 9);
        List<String> first = scripts.take(SERVER.client(), keys, id, 21, 1, "t", now, seckill.redis.ReplicaAcks.NONE);
        List<String> second = scripts.take(SERVER.client(), keys, id, 21, 1, "t", now, seckill.redis.ReplicaAcks.NONE);
        assertThat(first, is(List.of("RESERVED", id.toString(), "4")));
        assertThat(second, is(first));
        assertThat(SERVER.client().get(keys.stock(2)), is("4"));
        assertThat(SERVER.client().xlen(keys.events(2)), is(1L));
        assertThat(scripts.settle(SERVER.client(), keys, 0, 21, "pending:9", id.toString()), is(true));
        assertThat(scripts.settle(SERVER.client(), keys, 0, 21, "pending:9", id.toString()), is(true));
        assertThat(SERVER.client().hget(keys.buyers(0), "21"), is(id.toString()));
    }

    @Test
    void refillTwicePutsTheUnitBackOnce() {
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = StockBuckets.of(activity, 1, 1);
        new PreheatScript().preheat(SERVER.client(), keys, 0, 3, "ordering", expireAt, 45);
        ReservationId id = new ReservationId(activity, 1, 0, 3);
        new ReservationScript().reserve(SERVER.client(), keys, id, 31, 1, "x", now, seckill.redis.ReplicaAcks.NONE, seckill.reservation.api.BuyerWindow.NONE);
        RefillScript refill = new RefillScript();
        assertThat(refill.refill(SERVER.client(), keys, id, 31, 1, true, seckill.redis.ReplicaAcks.NONE), is(RestockOutcome.APPLIED));
        // the relay treats both answers as done
        assertThat(refill.refill(SERVER.client(), keys, id, 31, 1, true, seckill.redis.ReplicaAcks.NONE), is(RestockOutcome.ALREADY_APPLIED));
        assertThat(SERVER.client().get(keys.stock(0)), is("3"));
        assertThat(SERVER.client().get(keys.refilledUnits(0)), is("1"));
    }

    /**
     * A donor's stock counter without an expiry: the record of ids served there must outlive the call, or the
     * same take run again (a retry after a lost reply) takes a second unit for one reservation. It was given 1 ms.
     */
    @Test
    void takeTwiceFromADonorWhoseCounterHasNoExpiryTakesOneUnit() throws InterruptedException {
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = StockBuckets.of(activity, 1, 3);
        PreheatScript preheat = new PreheatScript();
        for (int b = 0; b < 3; b++) {
            preheat.preheat(SERVER.client(), keys, b, 5, "ordering", expireAt, 44);
        }
        SERVER.client().persist(keys.stock(2));
        BucketScripts scripts = new BucketScripts();
        ReservationId id = new ReservationId(activity, 1, 2, 9);
        List<String> first = scripts.take(SERVER.client(), keys, id, 21, 1, "t", now, seckill.redis.ReplicaAcks.NONE);
        Thread.sleep(20);
        List<String> second = scripts.take(SERVER.client(), keys, id, 21, 1, "t", now, seckill.redis.ReplicaAcks.NONE);
        assertThat(first, is(List.of("RESERVED", id.toString(), "4")));
        assertThat(second, is(first));
        assertThat(SERVER.client().get(keys.stock(2)), is("4"));
        assertThat(SERVER.client().xlen(keys.events(2)), is(1L));
    }

    /**
     * A stock counter without an expiry (an operator's hand repair with {@code SET}, a restore by hand): the
     * refill's record of ids refilled must live as long as the stock does. It was given 1 ms (the counter's
     * {@code PTTL} of -1 taken as a lifetime), so the next run of the same refill, which the relay sends again
     * when reconciliation finds the refill "lost", put the unit back a second time, and again each pass.
     */
    @Test
    void refillTwiceOnAStockCounterWithoutAnExpiryPutsTheUnitBackOnce() throws InterruptedException {
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = StockBuckets.of(activity, 1, 1);
        new PreheatScript().preheat(SERVER.client(), keys, 0, 3, "ordering", expireAt, 45);
        ReservationId id = new ReservationId(activity, 1, 0, 4);
        new ReservationScript().reserve(SERVER.client(), keys, id, 32, 1, "x", now, seckill.redis.ReplicaAcks.NONE, seckill.reservation.api.BuyerWindow.NONE);
        SERVER.client().persist(keys.stock(0));
        RefillScript refill = new RefillScript();
        assertThat(refill.refill(SERVER.client(), keys, id, 32, 1, true, seckill.redis.ReplicaAcks.NONE), is(RestockOutcome.APPLIED));
        Thread.sleep(20);
        assertThat(refill.refill(SERVER.client(), keys, id, 32, 1, true, seckill.redis.ReplicaAcks.NONE), is(RestockOutcome.ALREADY_APPLIED));
        assertThat(SERVER.client().get(keys.stock(0)), is("3"));
        assertThat(SERVER.client().get(keys.refilledUnits(0)), is("1"));
    }

    @Test
    void snapshotAndTrimTwiceChangeNothingMore() {
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = StockBuckets.of(activity, 1, 1);
        new PreheatScript().preheat(SERVER.client(), keys, 0, 3, "ordering", expireAt, 46);
        ReservationId id = new ReservationId(activity, 1, 0, 4);
        new ReservationScript().reserve(SERVER.client(), keys, id, 41, 1, "y", now, seckill.redis.ReplicaAcks.NONE, seckill.reservation.api.BuyerWindow.NONE);
        SnapshotScript snapshot = new SnapshotScript();
        BucketSnapshot first = snapshot.take(SERVER.client(), keys, 0, "ordering", 100);
        assertThat(snapshot.take(SERVER.client(), keys, 0, "ordering", 100), is(first));
        assertThat(((BucketSnapshot.Taken) first).unsettledReservations(), is(List.of(id.toString())));
        TrimScript trim = new TrimScript();
        trim.trim(SERVER.client(), keys.events(0), "ordering");
        trim.trim(SERVER.client(), keys.events(0), "ordering");
        assertThat("an undelivered event is never trimmed", SERVER.client().xlen(keys.events(0)), is(1L));
    }

    @Test
    void aRepeatClickWhileAnotherTakesFromADonorIsInProgressNotAnIdThatDoesNotExist() {
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = StockBuckets.of(activity, 1, 3);
        new PreheatScript().preheat(SERVER.client(), keys, 0, 1, "ordering", expireAt, 47);
        BucketScripts scripts = new BucketScripts();
        assertThat(scripts.claim(SERVER.client(), keys, 0, 51, "pending:77"), is(""));
        ReservationOutcome repeat = new ReservationScript().reserve(SERVER.client(), keys, new ReservationId(activity, 1, 0, 78),
                51, 1, "z", now, seckill.redis.ReplicaAcks.NONE, seckill.reservation.api.BuyerWindow.NONE);
        assertThat(repeat, is(new ReservationOutcome.InProgress()));
    }
}
