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
import seckill.redis.CoalescingSettings;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.instanceOf;
import static org.hamcrest.Matchers.is;

/**
 * Admission's checks in the order that costs least first: each earlier check wins over every later
 * one, and none of the in-memory checks reaches Redis (here a Redis that refuses every connection:
 * reaching it would answer InDoubt, which only the last case expects).
 */
class AdmittingPurchasesTest {

    private static final Instant NOW = Instant.parse("2026-06-18T12:00:00Z");
    private static final SaleWindow OPEN = new SaleWindow(NOW.minusSeconds(60), NOW.plusSeconds(600));
    private static final SaleWindow LATER = new SaleWindow(NOW.plusSeconds(30), NOW.plusSeconds(600));
    private static final SaleWindow OVER = new SaleWindow(NOW.minusSeconds(600), NOW.minusSeconds(60));

    private final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    private final JedisPooled unreachable = new JedisPooled("127.0.0.1", 1);
    private final AdmissionSwitches switches = new AdmissionSwitches();
    private final SoldOutBroadcast broadcast = new SoldOutBroadcast(unreachable, clock, 5);
    private final AdmittingPurchases admission;

    AdmittingPurchasesTest() {
        broadcast.init();
        switches.set(100, 1000, 0, false);
        admission = new AdmittingPurchases(clock, broadcast, switches, null, unreachable, null, 1, false,
                new CoalescingSettings(false, 32, 0, 1), 200);
    }

    @AfterEach
    void close() {
        unreachable.close();
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
    void onlyAnAttemptThatPassedEveryCheckAsksRedisAndItsSilenceIsDoubt() {
        assertThat(admission.judge(attempt(8, "", OPEN)), instanceOf(AdmissionDecision.InDoubt.class));
        // in doubt is the caller's to act on: admission halted nothing by itself
        assertThat(admission.haltedBecause(), is(Optional.empty()));
    }

    private static PurchaseAttempt attempt(long userId, String clientIp, SaleWindow window) {
        return new PurchaseAttempt(1, 1, userId, clientIp, window, Optional.empty());
    }
}
