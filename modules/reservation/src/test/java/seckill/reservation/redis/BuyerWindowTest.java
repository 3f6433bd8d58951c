package seckill.reservation.redis;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import seckill.redis.ReplicaAcks;
import seckill.reservation.TestRedis;
import seckill.reservation.api.BuyerWindow;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.ReservationOutcome;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.instanceOf;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.nullValue;

/**
 * The buyer's rate-limit window is judged by the reservation script itself, on the home bucket's
 * slot: one script call decides limit, dedupe and stock. An attempt over the window takes nothing
 * and answers when to retry; a re-run of the same call answers the same and counts once.
 */
class BuyerWindowTest {

    private static final AtomicLong ACTIVITY = new AtomicLong(System.currentTimeMillis() % 1_000_000_000L * 10 + 5);
    @RegisterExtension
    static final TestRedis SERVER = new TestRedis();
    private final Instant now = Instant.now();
    private final ReservationScript script = new ReservationScript();
    private final BuyerWindow onePer4s = new BuyerWindow(1, 4000);

    /** The bucket's stock left and the reservation events recorded in its stream. */
    private static void assertLeftAndRecorded(StockBuckets keys, long stock, long events) {
        assertThat(SERVER.client().get(keys.stock(0)), is(Long.toString(stock)));
        assertThat((long) TestRedis.recorded(SERVER.client(), keys.events(0)).size(), is(events));
    }

    /**
     * A reservation id as an instance mints it at {@code at}: the moment is in its sequence's leading bits
     * (ReservationSequence), which is where the window of a buyer's reserving attempt is read back from.
     */
    private static ReservationId minted(long activity, long n, Instant at) {
        return new ReservationId(activity, 1, 0, new ReservationSequence(Clock.fixed(at, ZoneOffset.UTC), n).next());
    }

    /** A moment {@code plus} millis into the 4 s window period that {@code now} is in. */
    private Instant intoPeriod(long plus) {
        return Instant.ofEpochMilli(Math.floorDiv(now.toEpochMilli(), 4000L) * 4000 + plus);
    }

    private StockBuckets preheated(long activity, long stock) {
        StockBuckets keys = StockBuckets.of(activity, 1, 1);
        new PreheatScript().preheat(SERVER.client(), keys, 0, stock, "ordering", now.plusSeconds(600), 40);
        return keys;
    }

    @Test
    void aSecondAttemptInsideTheWindowIsThrottledAndTakesNothing() {
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = preheated(activity, 10);
        ReservationId first = minted(activity, 1, now);
        assertThat(script.reserve(SERVER.client(), keys, first, 5, 1, "a", now, ReplicaAcks.NONE, onePer4s),
                is(new ReservationOutcome.Reserved(first, 9)));

        ReservationOutcome again = script.reserve(SERVER.client(), keys, minted(activity, 2, now), 5, 1, "b",
                now, ReplicaAcks.NONE, onePer4s);
        assertThat(again, instanceOf(ReservationOutcome.Throttled.class));
        ReservationOutcome.Throttled throttled = (ReservationOutcome.Throttled) again;
        assertThat(throttled.attempts(), is(2L));
        assertThat(throttled.retryAfterMillis(), greaterThan(0L));
        assertThat(throttled.retryAfterMillis(), lessThanOrEqualTo(4000L));
        // another buyer of the same bucket has a window of their own
        ReservationId other = minted(activity, 3, now);
        assertThat(script.reserve(SERVER.client(), keys, other, 6, 1, "c", now, ReplicaAcks.NONE, onePer4s),
                is(new ReservationOutcome.Reserved(other, 8)));
        assertLeftAndRecorded(keys, 8, 2);
    }

    @Test
    void aCallRunAgainGetsTheSameVerdictAndAnAdmittedOneIsNotCountedTwice() {
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = preheated(activity, 10);
        script.reserve(SERVER.client(), keys, minted(activity, 1, now), 5, 1, "a", now, ReplicaAcks.NONE,
                onePer4s);
        // the admitted first call, re-run (a lost reply): the same reservation, not a second attempt
        assertThat(script.reserve(SERVER.client(), keys, minted(activity, 1, now), 5, 1, "a", now,
                ReplicaAcks.NONE, onePer4s), is(new ReservationOutcome.Reserved(minted(activity, 1, now), 9)));
        ReservationId second = minted(activity, 2, now);
        ReservationOutcome once = script.reserve(SERVER.client(), keys, second, 5, 1, "b", now, ReplicaAcks.NONE, onePer4s);
        ReservationOutcome twice = script.reserve(SERVER.client(), keys, second, 5, 1, "b", now, ReplicaAcks.NONE, onePer4s);
        assertThat("the re-run did not count as the buyer's second attempt",
                ((ReservationOutcome.Throttled) once).attempts(), is(2L));
        // over the limit it stays over until the window ends: the verdict repeats (the count goes on)
        assertThat(twice, instanceOf(ReservationOutcome.Throttled.class));
        assertLeftAndRecorded(keys, 9, 1);
    }

    @Test
    void aWindowOpenedAtAPeriodsEndHoldsIntoTheNextAndEndsItsMillisAfterItOpened() {
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = preheated(activity, 10);
        // the windows of a call live in the hashes of its period and the one before (periods of 4 s):
        // this one opens a millisecond before a period ends
        Instant opened = intoPeriod(3999);
        ReservationId first = minted(activity, 1, opened);
        assertThat(script.reserve(SERVER.client(), keys, first, 5, 1, "a", opened, ReplicaAcks.NONE, onePer4s),
                is(new ReservationOutcome.Reserved(first, 9)));
        assertThat(script.reserve(SERVER.client(), keys, minted(activity, 2, now), 5, 1, "b",
                opened.plusMillis(2), ReplicaAcks.NONE, onePer4s), is(new ReservationOutcome.Throttled(2, 3998)));
        assertThat(script.reserve(SERVER.client(), keys, minted(activity, 3, now), 5, 1, "c",
                opened.plusMillis(3999), ReplicaAcks.NONE, onePer4s), is(new ReservationOutcome.Throttled(3, 1)));
        // 4 s after it opened the window has ended: the buyer is judged again, by dedupe this time
        assertThat(script.reserve(SERVER.client(), keys, minted(activity, 4, now), 5, 1, "d",
                opened.plusMillis(4000), ReplicaAcks.NONE, onePer4s), is(new ReservationOutcome.AlreadyReserved(first)));
        assertThat(script.reserve(SERVER.client(), keys, minted(activity, 5, now), 5, 1, "e",
                opened.plusMillis(4001), ReplicaAcks.NONE, onePer4s), is(new ReservationOutcome.Throttled(2, 3999)));
        assertLeftAndRecorded(keys, 9, 1);
    }

    @Test
    void aCallJudgesBuyersWhoseWindowsAreInEitherPeriodsHashWhateverTheirOrder() {
        // issue #35's fifth step reads the earlier period's hash only when a buyer has no window in
        // this period's: here the first buyers have theirs in this period's, the later ones in the
        // earlier period's, one buyer in both (a window that ended, and the one opened after it)
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = preheated(activity, 10);
        long period = Math.floorDiv(now.toEpochMilli(), 4000L);
        Instant at = Instant.ofEpochMilli(period * 4000 + 1000);
        String earlier = keys.windows(0, 4000, period - 1);
        String current = keys.windows(0, 4000, period);
        SERVER.client().hset(current, "21", (period * 4000 + 500) + ",1,");
        SERVER.client().hset(earlier, "22", (period * 4000 - 1000) + ",1,");
        SERVER.client().hset(earlier, "23", (period * 4000 - 3500) + ",1,");
        SERVER.client().hset(current, "23", (period * 4000 + 600) + ",1,");
        List<ReservationScript.Claim> claims = new ArrayList<>();
        for (long buyer = 21; buyer <= 24; buyer++) {
            claims.add(new ReservationScript.Claim(minted(activity, buyer, now), buyer, 1, "r" + buyer, onePer4s));
        }
        // run again (a lost reply): the reservation answered the same, the throttled attempts counted on
        for (long attempts = 2; attempts <= 3; attempts++) {
            assertThat(script.reserveMany(SERVER.client(), keys, claims, at, ReplicaAcks.NONE), is(List.of(
                    new ReservationOutcome.Throttled(attempts, 3500), new ReservationOutcome.Throttled(attempts, 2000),
                    new ReservationOutcome.Throttled(attempts, 3600),
                    new ReservationOutcome.Reserved(minted(activity, 24, now), 9))));
        }
        assertThat(SERVER.client().hget(current, "21"), is((period * 4000 + 500) + ",3,"));
        assertThat("a window is written back where it was found", SERVER.client().hget(earlier, "22"),
                is((period * 4000 - 1000) + ",3,"));
        assertThat(SERVER.client().hget(earlier, "23"), is((period * 4000 - 3500) + ",1,"));
        assertThat(SERVER.client().hget(current, "23"), is((period * 4000 + 600) + ",3,"));
        assertThat("a reserving attempt's window is not written: its reservation id says when it opened",
                SERVER.client().hget(current, "24"), is(nullValue()));
        assertLeftAndRecorded(keys, 9, 1);
    }

    @Test
    void theWindowsOfAPeriodAreOneHashWithAFieldPerBuyerThatRedisExpires() {
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = preheated(activity, 1);
        ReservationId late = minted(activity, 2, now);
        List<ReservationScript.Claim> claims = List.of(
                new ReservationScript.Claim(minted(activity, 1, now), 7, 1, "a", onePer4s),
                new ReservationScript.Claim(late, 8, 1, "b", onePer4s),
                new ReservationScript.Claim(minted(activity, 3, now), 9, 1, "c", onePer4s));
        script.reserveMany(SERVER.client(), keys, claims, now, ReplicaAcks.NONE);
        String hash = keys.windows(0, 4000, Math.floorDiv(now.toEpochMilli(), 4000L));
        // buyer 7 reserved (their window is their reservation id's), 8 and 9 found it sold out; and the
        // placeholder that makes it a hashtable (BucketHashEncodingTest)
        assertThat(SERVER.client().hkeys(hash), is(java.util.Set.of("_", "8", "9")));
        assertThat(SERVER.client().hget(hash, "8"), is(now.toEpochMilli() + ",1," + late + ","));
        // kept until its last window has ended, and one period more for instances whose clocks lag Redis'
        assertThat(SERVER.client().pttl(hash), greaterThan(0L));
        assertThat(SERVER.client().pttl(hash), lessThanOrEqualTo(3 * 4000L));
    }

    @Test
    void aCallWhosePeriodHasEndedOnRedisClockLeavesNoWindowHashWithoutAnExpiry() {
        // the hostile review of issue #35's ninth step: the call that made a period's hash set its expiry
        // before writing the windows, so a call whose moment lags Redis' clock by two periods or more (a
        // database clock behind, a stalled Redis) had the hash deleted by its own PEXPIREAT, then wrote it
        // again without an expiry: a hash per bucket and period kept for good while the lag lasts
        BuyerWindow onePerSecond = new BuyerWindow(1, 1000);
        List<?> time = (List<?>) SERVER.client().eval("return redis.call('TIME')");
        long redisNow = Long.parseLong(time.get(0).toString()) * 1000 + Long.parseLong(time.get(1).toString()) / 1000;
        Instant stale = Instant.ofEpochMilli(redisNow - 3500);
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = preheated(activity, 10);
        String hash = keys.windows(0, 1000, Math.floorDiv(stale.toEpochMilli(), 1000L));
        script.reserve(SERVER.client(), keys, minted(activity, 1, now), 7, 1, "a", stale, ReplicaAcks.NONE,
                onePerSecond);
        assertThat("gone, or expiring: " + SERVER.client().pttl(hash), SERVER.client().pttl(hash) == -1L, is(false));
        script.reserveMany(SERVER.client(), keys, List.of(
                new ReservationScript.Claim(minted(activity, 2, now), 8, 1, "b", onePerSecond),
                new ReservationScript.Claim(minted(activity, 3, now), 9, 1, "c", onePerSecond)),
                stale, ReplicaAcks.NONE);
        assertThat("gone, or expiring: " + SERVER.client().pttl(hash), SERVER.client().pttl(hash) == -1L, is(false));
    }

    @Test
    void aWindowLongerThanRedisCanExpireIsRefusedBeforeAnyWrite() {
        // the second hostile review of issue #35's ninth step: a window of 4e16 ms made the hash's expiry
        // (p + 3) * millis print as "1.6e+17", which PEXPIREAT refuses: the call failed after writing the
        // window and the placeholder, so a re-run counted the attempt again and the hash never expired
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = preheated(activity, 10);
        long millis = 40_000_000_000_000_000L;
        String hash = keys.windows(0, millis, Math.floorDiv(now.toEpochMilli(), millis));
        List<String> callKeys = new ArrayList<>(keys.bucketKeys(0));
        callKeys.add(keys.served(0));
        callKeys.add(keys.windows(0, millis, Math.floorDiv(now.toEpochMilli(), millis) - 1));
        callKeys.add(hash);
        ReservationId id = minted(activity, 1, now);
        String at = Long.toString(now.toEpochMilli());
        for (String script : List.of("reserve.lua", "reserve_many.lua")) {
            List<String> args = script.equals("reserve.lua")
                    ? List.of("7", "1", id.toString(), "a", at, Long.toString(activity), "1", "1", Long.toString(millis))
                    : List.of("1", at, "1", "1", "1", Long.toString(millis), "es", "7", id.toString(),
                            id + ",7,1," + at + ",a");
            try {
                SERVER.client().eval(source(script), callKeys, args);
                throw new AssertionError(script + " judged a window of " + millis + " ms");
            } catch (redis.clients.jedis.exceptions.JedisDataException refused) {
                assertThat(refused.getMessage(), refused.getMessage().contains("window"), is(true));
            }
            assertThat(SERVER.client().exists(hash), is(false));
            assertLeftAndRecorded(keys, 10, 0);
        }
    }

    private static String source(String script) {
        try (var window = ReservationScript.class.getResourceAsStream("buyer_window.lua");
             var body = ReservationScript.class.getResourceAsStream(script)) {
            return new String(window.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8) + "\n"
                    + new String(body.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aWindowsTextIsTheOneInstancesOfTheEarlierScriptsReadAndWrite() {
        // "opened,attempts," then "id," per attempt let through that reserved nothing: instances of one
        // release and the next share the windows during a rolling upgrade (issue #35's fourth step joins
        // it differently, to the same text)
        BuyerWindow threePer4s = new BuyerWindow(3, 4000);
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = preheated(activity, 1);
        ReservationId sold = minted(activity, 1, now);
        script.reserve(SERVER.client(), keys, sold, 6, 1, "a", now, ReplicaAcks.NONE, threePer4s);
        ReservationId late = minted(activity, 2, now);
        ReservationId later = minted(activity, 3, now);
        script.reserveMany(SERVER.client(), keys, List.of(new ReservationScript.Claim(late, 5, 1, "b", threePer4s),
                new ReservationScript.Claim(later, 5, 1, "c", threePer4s)), now, ReplicaAcks.NONE);
        String hash = keys.windows(0, 4000, Math.floorDiv(now.toEpochMilli(), 4000L));
        long opened = now.toEpochMilli();
        // buyer 6 reserved: no window written (an instance of the earlier release judging 6 finds none and
        // opens one: one attempt more for a holder, once, during the upgrade)
        assertThat(SERVER.client().hget(hash, "6"), is(nullValue()));
        assertThat(SERVER.client().hget(hash, "5"), is(opened + ",2," + late + "," + later + ","));
        // a window the earlier script wrote, read and written by this one: its attempt goes on from it
        SERVER.client().hset(hash, "9", (opened - 1) + ",1," + late + ",");
        ReservationId nine = minted(activity, 4, now);
        assertThat(script.reserveMany(SERVER.client(), keys, List.of(new ReservationScript.Claim(nine, 9, 1, "d",
                threePer4s)), now, ReplicaAcks.NONE), is(List.of(new ReservationOutcome.SoldOut())));
        assertThat(SERVER.client().hget(hash, "9"), is((opened - 1) + ",2," + late + "," + nine + ","));
    }

    @Test
    void withoutAWindowOnlyDedupeAndStockJudge() {
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = preheated(activity, 10);
        ReservationId first = minted(activity, 1, now);
        script.reserve(SERVER.client(), keys, first, 5, 1, "a", now, ReplicaAcks.NONE, BuyerWindow.NONE);
        assertThat(script.reserve(SERVER.client(), keys, minted(activity, 2, now), 5, 1, "b", now,
                ReplicaAcks.NONE, BuyerWindow.NONE), is(new ReservationOutcome.AlreadyReserved(first)));
    }

    @Test
    void aReservingAttemptWritesNoWindowAndItsBuyerComesBackToTheOneItsReservationIdOpened() {
        // issue #35's tenth step: the buyer's record (the reservation id, minted a moment before the call
        // judged it) says when their window opened, so the attempt that reserves writes no window field
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = preheated(activity, 10);
        Instant at = intoPeriod(1000);
        String current = keys.windows(0, 4000, Math.floorDiv(at.toEpochMilli(), 4000L));
        ReservationId one = minted(activity, 1, at.minusMillis(3));
        ReservationId two = minted(activity, 2, at.minusMillis(3));
        assertThat(script.reserve(SERVER.client(), keys, one, 5, 1, "a", at, ReplicaAcks.NONE, onePer4s),
                is(new ReservationOutcome.Reserved(one, 9)));
        assertThat(script.reserveMany(SERVER.client(), keys, List.of(new ReservationScript.Claim(two, 6, 1, "b",
                onePer4s)), at, ReplicaAcks.NONE), is(List.of(new ReservationOutcome.Reserved(two, 8))));
        assertThat(SERVER.client().hget(current, "5"), is(nullValue()));
        assertThat(SERVER.client().hget(current, "6"), is(nullValue()));
        // back 500 ms later: the window their reservation opened 3 ms before the call, one attempt in it
        assertThat(script.reserve(SERVER.client(), keys, minted(activity, 3, at), 5, 1, "c", at.plusMillis(500),
                ReplicaAcks.NONE, onePer4s), is(new ReservationOutcome.Throttled(2, 3497)));
        assertThat(script.reserveMany(SERVER.client(), keys, List.of(new ReservationScript.Claim(
                minted(activity, 4, at), 6, 1, "d", onePer4s)), at.plusMillis(500), ReplicaAcks.NONE),
                is(List.of(new ReservationOutcome.Throttled(2, 3497))));
        // written back then, in the hash of the period it opened in, and counted on from there
        assertThat(SERVER.client().hget(current, "5"), is(at.minusMillis(3).toEpochMilli() + ",2,"));
        assertThat(script.reserve(SERVER.client(), keys, minted(activity, 5, at), 5, 1, "e", at.plusMillis(600),
                ReplicaAcks.NONE, onePer4s), is(new ReservationOutcome.Throttled(3, 3397)));
        // once it has ended, dedupe answers
        assertThat(script.reserve(SERVER.client(), keys, minted(activity, 6, at), 6, 1, "f", at.plusMillis(3997),
                ReplicaAcks.NONE, onePer4s), is(new ReservationOutcome.AlreadyReserved(two)));
        assertLeftAndRecorded(keys, 8, 2);
    }

    @Test
    void aReservationsWindowIsReadBackInThePeriodItOpenedIn() {
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = preheated(activity, 10);
        Instant start = intoPeriod(0);
        long period = Math.floorDiv(start.toEpochMilli(), 4000L);
        // minted 10 ms before this period began, judged 5 ms into it
        ReservationId early = minted(activity, 1, start.minusMillis(10));
        assertThat(script.reserveMany(SERVER.client(), keys, List.of(new ReservationScript.Claim(early, 5, 1, "a",
                onePer4s)), start.plusMillis(5), ReplicaAcks.NONE), is(List.of(new ReservationOutcome.Reserved(early, 9))));
        assertThat(script.reserveMany(SERVER.client(), keys, List.of(new ReservationScript.Claim(
                minted(activity, 3, start), 5, 1, "c", onePer4s)), start.plusMillis(20), ReplicaAcks.NONE),
                is(List.of(new ReservationOutcome.Throttled(2, 3970))));
        assertThat(SERVER.client().hget(keys.windows(0, 4000, period - 1), "5"),
                is(start.minusMillis(10).toEpochMilli() + ",2,"));
        assertLeftAndRecorded(keys, 9, 1);
    }

    @Test
    void aHolderWhoseIdWasMintedAheadOfTheCallIsJudgedByTheWindowTheirReturnOpens() {
        // the hostile review of the tenth step: an id minted by a clock ahead (another instance's), read
        // as a window opened "now", counted an attempt nobody made on every return while the clock stayed
        // behind the mint: the holder was THROTTLED (never told their reservation) again and again
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = preheated(activity, 10);
        ReservationId ahead = minted(activity, 1, now.plusSeconds(20));
        assertThat(script.reserve(SERVER.client(), keys, ahead, 5, 1, "a", now, ReplicaAcks.NONE, onePer4s),
                is(new ReservationOutcome.Reserved(ahead, 9)));
        for (int i = 1; i <= 3; i++) {
            Instant at = now.plusMillis(4001L * i);
            ReservationId back = minted(activity, 1 + i, at);
            assertThat(script.reserve(SERVER.client(), keys, back, 5, 1, "r" + i, at, ReplicaAcks.NONE, onePer4s),
                    is(new ReservationOutcome.AlreadyReserved(ahead)));
            // within the window that return opened, the limit holds
            assertThat(script.reserveMany(SERVER.client(), keys, List.of(new ReservationScript.Claim(
                    minted(activity, 10 + i, at), 5, 1, "s" + i, onePer4s)), at.plusMillis(1), ReplicaAcks.NONE),
                    is(List.of(new ReservationOutcome.Throttled(2, 3999))));
        }
        assertLeftAndRecorded(keys, 9, 1);
    }

    @Test
    void aPendingClaimWhoseRequestIdEndsLikeAnIdIsNoWindow() {
        // the hostile review of the tenth step: a pending claim's record ends in the client's requestId; a
        // UUID's last 12 hex digits read as an id minted years ahead, opened "now" with an attempt nobody
        // made, and the buyer's retry, the one that resumes their claim in doubt, was THROTTLED for good
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = preheated(activity, 0);
        String requestId = "550e8400-e29b-41d4-a716-446655440000";
        new BucketScripts().claim(SERVER.client(), keys, 0, 5, "pending:123456789:" + requestId);
        for (int i = 0; i < 3; i++) {
            Instant at = now.plusMillis(4001L * i);
            assertThat(script.reserve(SERVER.client(), keys, minted(activity, 10 + i, at), 5, 1, requestId, at,
                    ReplicaAcks.NONE, onePer4s), is(new ReservationOutcome.InProgress()));
        }
    }

    @Test
    void oneCoalescedCallJudgesEachBuyersWindowInOrder() {
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = preheated(activity, 10);
        List<ReservationScript.Claim> claims = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            // buyer 7 clicks three times in the same call, buyers 8 and 9 once
            long buyer = i <= 3 ? 7 : 7 + i - 3;
            claims.add(new ReservationScript.Claim(minted(activity, i, now), buyer, 1, "r" + i, onePer4s));
        }
        List<ReservationOutcome> first = script.reserveMany(SERVER.client(), keys, claims, now, ReplicaAcks.NONE);
        List<ReservationOutcome> again = script.reserveMany(SERVER.client(), keys, claims, now, ReplicaAcks.NONE);
        assertThat(((ReservationOutcome.Throttled) first.get(1)).attempts(), is(2L));
        assertThat(((ReservationOutcome.Throttled) first.get(2)).attempts(), is(3L));
        for (List<ReservationOutcome> outcomes : List.of(first, again)) {
            assertThat(outcomes.get(0), is(new ReservationOutcome.Reserved(minted(activity, 1, now),
                    outcomes == first ? 9 : 7)));
            assertThat(outcomes.get(1), instanceOf(ReservationOutcome.Throttled.class));
            assertThat(outcomes.get(2), instanceOf(ReservationOutcome.Throttled.class));
            assertThat(outcomes.get(3), instanceOf(ReservationOutcome.Reserved.class));
            assertThat(outcomes.get(4), instanceOf(ReservationOutcome.Reserved.class));
        }
        assertLeftAndRecorded(keys, 7, 3);
    }

    @Test
    void anAttemptLetThroughThatReservesNothingCountsOnceWhenRunAgain() {
        BuyerWindow twoPer4s = new BuyerWindow(2, 4000);
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = preheated(activity, 1);
        script.reserve(SERVER.client(), keys, minted(activity, 1, now), 6, 1, "sells-out", now,
                ReplicaAcks.NONE, twoPer4s);
        ReservationId late = minted(activity, 2, now);
        // buyer 5's first attempt finds the SKU sold out; its re-run (a lost reply) is not a second attempt
        assertThat(script.reserve(SERVER.client(), keys, late, 5, 1, "a", now, ReplicaAcks.NONE, twoPer4s),
                is(new ReservationOutcome.SoldOut()));
        assertThat(script.reserve(SERVER.client(), keys, late, 5, 1, "a", now, ReplicaAcks.NONE, twoPer4s),
                is(new ReservationOutcome.SoldOut()));
        ReservationScript.Claim second = new ReservationScript.Claim(minted(activity, 3, now), 5, 1, "b",
                twoPer4s);
        ReservationScript.Claim third = new ReservationScript.Claim(minted(activity, 4, now), 5, 1, "c",
                twoPer4s);
        List<ReservationOutcome> coalesced = script.reserveMany(SERVER.client(), keys, List.of(second, third), now,
                ReplicaAcks.NONE);
        List<ReservationOutcome> rerun = script.reserveMany(SERVER.client(), keys, List.of(second), now,
                ReplicaAcks.NONE);
        assertThat(coalesced.get(0), is(new ReservationOutcome.SoldOut()));
        assertThat(((ReservationOutcome.Throttled) coalesced.get(1)).attempts(), is(3L));
        assertThat("the coalesced call's admitted attempt, re-run, is not counted again either",
                rerun, is(List.of(new ReservationOutcome.SoldOut())));
        assertLeftAndRecorded(keys, 0, 1);
    }

    @Test
    void aBuyerTwiceInOneCallIsReservedOnceAndToldTheFirstId() {
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = preheated(activity, 10);
        ReservationId first = minted(activity, 1, now);
        ReservationId other = minted(activity, 2, now);
        List<ReservationScript.Claim> claims = List.of(
                new ReservationScript.Claim(first, 7, 1, "a", BuyerWindow.NONE),
                new ReservationScript.Claim(other, 8, 2, "b", BuyerWindow.NONE),
                new ReservationScript.Claim(minted(activity, 3, now), 7, 1, "c", BuyerWindow.NONE));
        assertThat(script.reserveMany(SERVER.client(), keys, claims, now, ReplicaAcks.NONE),
                is(List.of(new ReservationOutcome.Reserved(first, 9), new ReservationOutcome.Reserved(other, 7),
                        new ReservationOutcome.AlreadyReserved(first))));
        assertThat(SERVER.client().get(keys.stock(0)), is("7"));
        assertThat(SERVER.client().hget(keys.buyers(0), "7"), is(first.toString()));
        assertThat(SERVER.client().hget(keys.buyers(0), "8"), is(other.toString()));
        assertThat(TestRedis.recorded(SERVER.client(), keys.events(0)), is(List.of(first.toString(), other.toString())));
        assertThat("the call's reservations in one entry", SERVER.client().xlen(keys.events(0)), is(1L));
    }
}
