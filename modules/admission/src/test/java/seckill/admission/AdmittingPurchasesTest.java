package seckill.admission;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPooled;
import seckill.admission.api.AdmissionDecision;
import seckill.admission.api.HaltReason;
import seckill.admission.api.PurchaseAttempt;
import seckill.admission.api.SaleWindow;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.instanceOf;
import static org.hamcrest.Matchers.is;

/**
 * Admission's checks in the order that costs least first: each earlier check wins over every later
 * one, and none of the in-memory checks reaches Redis (here a Redis that refuses every connection:
 * reaching it would answer InDoubt, which only the global rate's lease may).
 */
class AdmittingPurchasesTest {

    private static final Instant NOW = Instant.parse("2026-06-18T12:00:00Z");
    private static final SaleWindow OPEN = new SaleWindow(NOW.minusSeconds(60), NOW.plusSeconds(600));
    private static final SaleWindow LATER = new SaleWindow(NOW.plusSeconds(30), NOW.plusSeconds(600));
    private static final SaleWindow OVER = new SaleWindow(NOW.minusSeconds(600), NOW.minusSeconds(60));

    private final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    private final JedisPooled unreachable = new JedisPooled("127.0.0.1", 1);
    private final AdmissionSwitches switches = new AdmissionSwitches();
    private final SoldOutBroadcast broadcast = new SoldOutBroadcast(unreachable, 5);
    private final AdmittingPurchases admission;

    AdmittingPurchasesTest() {
        broadcast.init();
        switches.set(100, 1000, 0, false);
        admission = new AdmittingPurchases(clock, broadcast, switches, null, unreachable, null, 1);
    }

    @AfterEach
    void close() {
        unreachable.close();
    }

    @Test
    void aBuyerWindowLongerThanTheReservationScriptJudgesIsCappedAtItsLongest() {
        // the reservation script refuses windows over 10^12 ms (Redis could not expire their hashes):
        // a switch set to "once a sale" as Long.MAX_VALUE still admits, with the longest window
        switches.set(1, Long.MAX_VALUE, 0, false);
        assertThat(admission.judge(attempt(7, "", OPEN)), is(new AdmissionDecision.Admitted(1, 1_000_000_000_000L)));
    }

    @Test
    void aHaltWinsOverEverything() {
        switches.set(Set.of("7"), Set.of("203.0.113.7"), false);
        admission.halt(HaltReason.RESERVATION_STORE_IN_DOUBT);
        assertThat(admission.judge(attempt(7, "203.0.113.7", OVER)),
                is(new AdmissionDecision.Halted(HaltReason.RESERVATION_STORE_IN_DOUBT, 2)));
        admission.resume();
        switches.set(Set.of(), Set.of(), true);
        assertThat(admission.judge(attempt(7, "", OVER)), is(new AdmissionDecision.Halted(HaltReason.OPERATOR_SWITCH, 5)));
    }

    @Test
    void eachWorldHasItsOwnHalt() {
        // docs/rehearsal.md: a rehearsal's doubt halts rehearsals only, a real halt real sales only
        PurchaseAttempt rehearsal = new PurchaseAttempt(seckill.redis.World.REHEARSAL_IDS_FROM + 1, 2, 8, "", OPEN,
                Optional.empty());
        admission.halt(seckill.redis.World.REHEARSAL, HaltReason.RESERVATION_STORE_IN_DOUBT);
        assertThat(admission.judge(rehearsal), is(new AdmissionDecision.Halted(HaltReason.RESERVATION_STORE_IN_DOUBT, 2)));
        assertThat(admission.judge(attempt(8, "", OPEN)), is(new AdmissionDecision.Admitted(100, 1000)));
        assertThat(admission.haltedBecause(), is(Optional.empty()));
        admission.halt(HaltReason.OPERATOR);
        assertThat(admission.judge(attempt(8, "", OPEN)), is(new AdmissionDecision.Halted(HaltReason.OPERATOR, 2)));
        admission.resume(seckill.redis.World.REHEARSAL);
        assertThat(admission.judge(rehearsal), is(new AdmissionDecision.Admitted(100, 1000)));
        assertThat(admission.haltedBecause(), is(Optional.of(HaltReason.OPERATOR)));
        admission.resume();
        assertThat(admission.judge(attempt(8, "", OPEN)), is(new AdmissionDecision.Admitted(100, 1000)));
    }

    @Test
    void blocklistsComeBeforeTheSaleWindow() {
        switches.set(Set.of("7"), Set.of("203.0.113.7"), false);
        assertThat(admission.judge(attempt(7, "", OVER)), is(new AdmissionDecision.Blocked("buyer")));
        assertThat(admission.judge(attempt(8, "203.0.113.7", OVER)), is(new AdmissionDecision.Blocked("client address")));
        assertThat(admission.judge(attempt(8, "198.51.100.1", OVER)), instanceOf(AdmissionDecision.Ended.class));
    }

    @Test
    void theWindowComesBeforeTheSoldOutFlagAndTheFlagBeforeTheToken() {
        broadcast.flags().set(1, 1);
        assertThat(admission.judge(attempt(8, "", LATER)), is(new AdmissionDecision.NotStarted(30)));
        switches.set(100, 1000, 0, true);
        assertThat(admission.judge(attempt(8, "", OPEN)), instanceOf(AdmissionDecision.SoldOut.class));
    }

    @Test
    void anAttemptThatPassedEveryCheckIsAdmittedWithTheBuyersWindowWithoutAskingRedis() {
        // the window is the reservation script's to judge, in the call that takes the stock
        assertThat(admission.judge(attempt(8, "", OPEN)), is(new AdmissionDecision.Admitted(100, 1000)));
    }

    @Test
    void withAGlobalRateTheLeaseAsksRedisAndItsSilenceIsDoubt() {
        switches.set(100, 1000, 50, false);
        assertThat(admission.judge(attempt(8, "", OPEN)), instanceOf(AdmissionDecision.InDoubt.class));
        // in doubt is the caller's to act on: admission halted nothing by itself
        assertThat(admission.haltedBecause(), is(Optional.empty()));
    }

    @Test
    void aBuyerTheReservationThrottledIsAnsweredFromMemoryForThatSkuUntilTheWindowEnds() {
        PurchaseAttempt first = attempt(8, "", OPEN);
        assertThat(admission.throttledAtReservation(first, 2, 2500),
                is(new AdmissionDecision.Throttled("BUYER", 3, 100, 0, 3)));
        assertThat(admission.judge(first), is(new AdmissionDecision.Throttled("BUYER", 3, 100, 0, 3)));
        // the window was the SKU's: the buyer's attempt on another SKU goes on to its own
        assertThat(admission.judge(new PurchaseAttempt(1, 2, 8, "", OPEN, Optional.empty())),
                is(new AdmissionDecision.Admitted(100, 1000)));
    }

    private static PurchaseAttempt attempt(long userId, String clientIp, SaleWindow window) {
        return new PurchaseAttempt(1, 1, userId, clientIp, window, Optional.empty());
    }
}
