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

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * A bucket gives one unit per reservation id, whoever minted the id twice (two instances under one node
 * id): reserve.lua, reserve_many.lua and take.lua refuse an id the bucket gave a unit under already, and
 * change nothing (stock, events, the buyer's window), so the instance retries the buyer under a new id.
 */
class MintedIdsTest {

    private static final AtomicLong ACTIVITY = new AtomicLong(System.currentTimeMillis() % 1_000_000_000L * 10 + 5);
    @RegisterExtension
    static final TestRedis SERVER = new TestRedis();
    private final Instant now = Instant.now();
    private final ReservationScript script = new ReservationScript();

    @Test
    void anIdReservedForOneBuyerIsRefusedForAnotherAndTakesNothing() {
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = StockBuckets.of(activity, 1, 1);
        new PreheatScript().preheat(SERVER.client(), keys, 0, 10, "ordering", now.plusSeconds(600), 1);
        ReservationId id = new ReservationId(activity, 1, 0, 7);
        BuyerWindow onePerMinute = new BuyerWindow(1, 60_000);
        assertThat(script.reserve(SERVER.client(), keys, id, 5, 1, "a", now, ReplicaAcks.NONE, onePerMinute),
                is(new ReservationOutcome.Reserved(id, 9)));
        assertThat(script.reserve(SERVER.client(), keys, id, 6, 1, "b", now, ReplicaAcks.NONE, onePerMinute),
                is(new ReservationOutcome.IdTaken(id)));
        assertThat(script.reserveMany(SERVER.client(), keys, List.of(new ReservationScript.Claim(id, 6, 1, "b",
                onePerMinute)), now, ReplicaAcks.NONE), is(List.of(new ReservationOutcome.IdTaken(id))));
        assertThat(SERVER.client().get(keys.stock(0)), is("9"));
        assertThat(SERVER.client().xlen(keys.events(0)), is(1L));
        // the refusals counted no attempt: buyer 6's one attempt a minute is still theirs, under a fresh id
        ReservationId fresh = new ReservationId(activity, 1, 0, 8);
        assertThat(script.reserve(SERVER.client(), keys, fresh, 6, 1, "b", now, ReplicaAcks.NONE, onePerMinute),
                is(new ReservationOutcome.Reserved(fresh, 8)));
        assertThat(SERVER.client().hget(keys.served(0), id.toString()), is("5"));
        assertThat("the minted ids expire with the bucket", SERVER.client().pttl(keys.served(0)) > 0, is(true));
    }

    @Test
    void aClaimThatWouldTakeNothingIsNotAskedForItsIdAndGetsItsOwnAnswer() {
        // issue #35's fourth step: only a claim that would take a unit is checked against the minted ids
        // (no unit goes under the id of one that takes nothing); it is answered and counted as any other
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = StockBuckets.of(activity, 1, 1);
        new PreheatScript().preheat(SERVER.client(), keys, 0, 1, "ordering", now.plusSeconds(600), 4);
        ReservationId id = new ReservationId(activity, 1, 0, 7);
        BuyerWindow twoPerMinute = new BuyerWindow(2, 60_000);
        assertThat(script.reserve(SERVER.client(), keys, id, 5, 1, "a", now, ReplicaAcks.NONE, twoPerMinute),
                is(new ReservationOutcome.Reserved(id, 0)));
        // sold out: another buyer's claim under the same id is sold out, alone or coalesced, run again alike
        for (int run = 0; run < 2; run++) {
            assertThat(script.reserve(SERVER.client(), keys, id, 6, 1, "b", now, ReplicaAcks.NONE, twoPerMinute),
                    is(new ReservationOutcome.SoldOut()));
            assertThat(script.reserveMany(SERVER.client(), keys, List.of(new ReservationScript.Claim(id, 7, 1, "c",
                    twoPerMinute)), now, ReplicaAcks.NONE), is(List.of(new ReservationOutcome.SoldOut())));
        }
        // the attempts were let through and counted once each (their re-runs were not counted again)
        ReservationScript.Claim second = new ReservationScript.Claim(new ReservationId(activity, 1, 0, 8), 6, 1, "d",
                twoPerMinute);
        ReservationScript.Claim third = new ReservationScript.Claim(new ReservationId(activity, 1, 0, 9), 6, 1, "e",
                twoPerMinute);
        List<ReservationOutcome> later = script.reserveMany(SERVER.client(), keys, List.of(second, third), now,
                ReplicaAcks.NONE);
        assertThat(later.get(0), is(new ReservationOutcome.SoldOut()));
        assertThat(((ReservationOutcome.Throttled) later.get(1)).attempts(), is(3L));
        assertThat(SERVER.client().get(keys.stock(0)), is("0"));
        assertThat(SERVER.client().xlen(keys.events(0)), is(1L));
        assertThat(SERVER.client().hget(keys.served(0), id.toString()), is("5"));
    }

    @Test
    void twoBuyersOfOneCoalescedCallWithOneIdGetOneUnit() {
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = StockBuckets.of(activity, 1, 1);
        new PreheatScript().preheat(SERVER.client(), keys, 0, 10, "ordering", now.plusSeconds(600), 2);
        ReservationId id = new ReservationId(activity, 1, 0, 3);
        List<ReservationScript.Claim> claims = List.of(new ReservationScript.Claim(id, 11, 1, "a", BuyerWindow.NONE),
                new ReservationScript.Claim(id, 12, 1, "b", BuyerWindow.NONE));
        List<ReservationOutcome> first = script.reserveMany(SERVER.client(), keys, claims, now, ReplicaAcks.NONE);
        assertThat(first, is(List.of(new ReservationOutcome.Reserved(id, 9), new ReservationOutcome.IdTaken(id))));
        assertThat("run again, the same answers", script.reserveMany(SERVER.client(), keys, claims, now,
                ReplicaAcks.NONE), is(first));
        assertThat(SERVER.client().xlen(keys.events(0)), is(1L));
    }

    @Test
    void aDonorRefusesAnIdItsOwnBuyerReservedUnder() {
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = StockBuckets.of(activity, 1, 2);
        new PreheatScript().preheat(SERVER.client(), keys, 1, 10, "ordering", now.plusSeconds(600), 3);
        ReservationId id = new ReservationId(activity, 1, 1, 9);
        assertThat(script.reserve(SERVER.client(), keys, id, 5, 1, "a", now, ReplicaAcks.NONE, BuyerWindow.NONE),
                is(new ReservationOutcome.Reserved(id, 9)));
        assertThat(new BucketScripts().take(SERVER.client(), keys, id, 6, 1, "b", now, ReplicaAcks.NONE),
                is(List.of("ID_TAKEN", "5", "0")));
        assertThat(SERVER.client().get(keys.stock(1)), is("9"));
    }

    @Test
    void aStockKeptByHandBeforeItsFirstMintKeepsItsMintedIdsAndARetriedTakeTakesOnce() throws InterruptedException {
        // the hostile review of issue #35's ninth step: preheat made the minted ids with preheat's expiry,
        // so a bucket an operator kept by hand (PERSIST) before its first mint lost them at that expiry, and
        // a take retried after a lost reply then took a second unit for one reservation
        long activity = ACTIVITY.incrementAndGet();
        StockBuckets keys = StockBuckets.of(activity, 1, 1);
        new PreheatScript().preheat(SERVER.client(), keys, 0, 5, "ordering", Instant.now().plusMillis(400), 9);
        for (String key : List.of(keys.stock(0), keys.buyers(0), keys.events(0), keys.preheatMarker(0))) {
            SERVER.client().persist(key);
        }
        BucketScripts scripts = new BucketScripts();
        ReservationId id = new ReservationId(activity, 1, 0, 3);
        List<String> first = scripts.take(SERVER.client(), keys, id, 21, 1, "t", now, ReplicaAcks.NONE);
        assertThat(first, is(List.of("RESERVED", id.toString(), "4")));
        Thread.sleep(600); // past preheat's expiry
        List<String> retried = scripts.take(SERVER.client(), keys, id, 21, 1, "t", now, ReplicaAcks.NONE);
        assertThat(retried, is(first));
        assertThat(SERVER.client().get(keys.stock(0)), is("4"));
        assertThat(SERVER.client().xlen(keys.events(0)), is(1L));
        assertThat("kept for good, as the stock", SERVER.client().pttl(keys.served(0)), is(-1L));
    }
}
