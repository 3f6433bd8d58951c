package seckill.app.sale;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.junit.jupiter.api.Test;
import seckill.admission.api.Admission;
import seckill.admission.api.AdmissionDecision;
import seckill.admission.api.HaltReason;
import seckill.ledger.api.catalogue.Activity;
import seckill.ledger.api.catalogue.ActivityCatalog;
import seckill.ledger.api.catalogue.SkuLine;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.BuyerWindow;
import seckill.reservation.api.ReservationOutcome;
import seckill.reservation.api.ReserveStock;
import seckill.reservation.api.ReservationUnavailable;
import seckill.reservation.api.Reserving;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.instanceOf;
import static org.hamcrest.Matchers.is;

/**
 * The purchase use case against fakes of its three doors: what each answer of admission and
 * reservation comes to, and that Redis doubt, from either script, halts sales here and nowhere else.
 */
class PlacingPurchaseTest {

    /** A rehearsal's id (from 10^15): its world is read from the id alone. */
    private static final long REHEARSAL = seckill.redis.World.REHEARSAL_IDS_FROM + 7;

    private static final Activity ACTIVITY = new Activity(7, "sale", Instant.parse("2026-01-01T00:00:00Z"),
            Instant.parse("2030-01-01T00:00:00Z"), Duration.ofMinutes(15), List.of(new SkuLine(1, 100, 2, 1)));
    private static final ReservationId ID = new ReservationId(7, 1, 0, 42);

    private final List<String> admissionCalls = new ArrayList<>();
    private AdmissionDecision decision = new AdmissionDecision.Admitted(1, 1000);
    private Function<Object, ReservationOutcome> reservation = command -> new ReservationOutcome.Reserved(ID, 3);

    @Test
    void anUnknownActivityOrSkuOrTooManyUnitsNeverReachAdmission() {
        assertThat(place(8, 1, 1), instanceOf(PurchaseOutcome.UnknownActivity.class));
        assertThat(place(7, 2, 1), instanceOf(PurchaseOutcome.UnknownSku.class));
        assertThat(place(7, 1, 3), is(new PurchaseOutcome.OverBuyerLimit(2)));
        assertThat(admissionCalls, empty());
    }

    @Test
    void aReservationTellsAdmissionHowManyUnitsAreLeft() {
        assertThat(place(7, 1, 1), is(new PurchaseOutcome.Reserved(ID)));
        assertThat(admissionCalls, contains("admit", "reservedLeaving 7/1: 3"));
    }

    @Test
    void aRefusalByAdmissionIsReturnedWithTheSaleWindow() {
        decision = new AdmissionDecision.Blocked("buyer");
        PurchaseOutcome outcome = place(7, 1, 1);
        assertThat(outcome, instanceOf(PurchaseOutcome.NotAdmitted.class));
        assertThat(((PurchaseOutcome.NotAdmitted) outcome).window().endsAt(), is(ACTIVITY.endsAt()));
        assertThat(admissionCalls, contains("admit"));
    }

    @Test
    void doubtOnEitherScriptHaltsSalesHere() {
        decision = new AdmissionDecision.InDoubt();
        assertThat(place(7, 1, 1), is(new PurchaseOutcome.HaltedInDoubt(HaltReason.RATE_LIMITS_IN_DOUBT)));
        assertThat(admissionCalls, contains("admit", "halt RATE_LIMITS_IN_DOUBT"));

        admissionCalls.clear();
        decision = new AdmissionDecision.Admitted(1, 1000);
        reservation = command -> {
            throw new ReservationUnavailable("timed out", null, true);
        };
        assertThat(place(7, 1, 1), is(new PurchaseOutcome.HaltedInDoubt(HaltReason.RESERVATION_STORE_IN_DOUBT)));
        assertThat(admissionCalls, contains("admit", "halt RESERVATION_STORE_IN_DOUBT"));
    }

    @Test
    void aRehearsalsDoubtHaltsTheRehearsalsOnly() {
        // docs/rehearsal.md: one halt per world; doubt met by a rehearsal's purchase never halts real sales
        decision = new AdmissionDecision.InDoubt();
        assertThat(place(REHEARSAL, 1, 1), is(new PurchaseOutcome.HaltedInDoubt(HaltReason.RATE_LIMITS_IN_DOUBT)));
        assertThat(admissionCalls, contains("admit", "halt REHEARSAL RATE_LIMITS_IN_DOUBT"));

        admissionCalls.clear();
        decision = new AdmissionDecision.Admitted(1, 1000);
        reservation = command -> {
            throw new ReservationUnavailable("timed out", null, true);
        };
        assertThat(place(REHEARSAL, 1, 1), is(new PurchaseOutcome.HaltedInDoubt(HaltReason.RESERVATION_STORE_IN_DOUBT)));
        assertThat(admissionCalls, contains("admit", "halt REHEARSAL RESERVATION_STORE_IN_DOUBT"));
    }

    @Test
    void aCallThatNeverLeftTheInstanceIsBusyAndHaltsNothing() {
        reservation = command -> {
            throw new ReservationUnavailable("pool exhausted", null, false);
        };
        assertThat(place(7, 1, 1), instanceOf(PurchaseOutcome.Busy.class));
        assertThat(admissionCalls, contains("admit"));
    }

    @Test
    void theBuyersWindowTravelsWithTheReservationAndItsRefusalIsAdmissionsAnswer() {
        decision = new AdmissionDecision.Admitted(1, 4000);
        List<Object> commands = new ArrayList<>();
        reservation = command -> {
            commands.add(command);
            return new ReservationOutcome.Throttled(2, 1500);
        };
        PurchaseOutcome outcome = place(7, 1, 1);
        assertThat(((ReserveStock) commands.getFirst()).window(), is(new BuyerWindow(1, 4000)));
        assertThat(outcome, instanceOf(PurchaseOutcome.NotAdmitted.class));
        assertThat(((PurchaseOutcome.NotAdmitted) outcome).refusal(), is(new AdmissionDecision.Throttled("BUYER", 2, 1, 0, 2)));
        assertThat(admissionCalls, contains("admit", "throttledAtReservation 2 1500"));
    }

    @Test
    void anAdmittedAttemptBeyondTheBoundIsBusyAndNeverReachesRedisWhileARefusalIsStillAnswered() {
        PurchasesInFlight full = new PurchasesInFlight(1, null);
        assertThat(full.enter(), is(true));
        reservation = command -> {
            throw new AssertionError("no place was free: nothing may be sent");
        };
        PlacingPurchase placing = new PlacingPurchase(catalog(), admission(), reservations(), full, metrics());
        Purchase purchase = new Purchase(7, 1, 1, 99, "203.0.113.1", "r-1", Optional.empty());
        assertThat(placing.place(purchase), instanceOf(PurchaseOutcome.Busy.class));
        decision = new AdmissionDecision.SoldOut();
        assertThat(placing.place(purchase), instanceOf(PurchaseOutcome.NotAdmitted.class));
        assertThat(full.inFlight(), is(1L));
    }

    @Test
    void soldOutFlagsTheSku() {
        reservation = command -> new ReservationOutcome.SoldOut();
        assertThat(place(7, 1, 1), is(new PurchaseOutcome.SoldOut(1)));
        assertThat(admissionCalls, contains("admit", "soldOut 7/1"));
    }

    /**
     * The queue's switch turned off while a purchase with a pass reserves (hostile review, s44-qattack): the pass
     * claimed for it still bought, so it is marked used; before the fix the switch was read again after the
     * reservation and the pass was left out (the buyer read YOUR_TURN, then EXPIRED, holding a 202, and the room
     * stayed taken until the pass's expiry).
     */
    @Test
    void aPassThatBoughtIsMarkedUsedThoughTheQueueWasSwitchedOffMeanwhile() {
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        seckill.queue.api.QueueSwitch flipping = new seckill.queue.api.QueueSwitch() {
            @Override
            public boolean on() {
                return reads.getAndIncrement() == 0;  // on when the purchase starts, off after
            }

            @Override
            public long rate() {
                return 10;
            }
        };
        List<String> passCalls = new ArrayList<>();
        seckill.queue.api.PassCheck passes = fake(seckill.queue.api.PassCheck.class, (method, args) -> {
            passCalls.add(method);
            return switch (method) {
                case "refusal" -> Optional.empty();
                case "bind" -> seckill.queue.api.PassClaim.BOUND;
                default -> null;
            };
        });
        PlacingPurchase placing = new PlacingPurchase(catalog(), admission(), reservations(),
                new PurchasesInFlight(0, null), metrics(), flipping, passes);
        PurchaseOutcome outcome = placing.place(new Purchase(7, 1, 1, 99, "203.0.113.1", "r-1", Optional.empty(),
                Optional.of("the-pass")));
        assertThat(outcome, is(new PurchaseOutcome.Reserved(ID)));
        assertThat(passCalls, contains("refusal", "bind", "used"));
    }

    /**
     * The line's replicas did not acknowledge the pass's binding to this purchase (claim.lua, issue #33): a failover
     * could lose it and let the pass buy again, so the purchase does not go on: nothing reserved, nothing admitted,
     * the binding released so the buyer's retry (any requestId) may claim it, and the buyer told to retry.
     */
    @Test
    void aPassWhoseBindingTheReplicasDidNotAcknowledgeReservesNothing() {
        List<String> passCalls = new ArrayList<>();
        seckill.queue.api.PassCheck passes = fake(seckill.queue.api.PassCheck.class, (method, args) -> {
            passCalls.add(method);
            return switch (method) {
                case "refusal" -> Optional.empty();
                case "bind" -> throw new seckill.queue.api.LineUnavailable("not acknowledged", null);
                default -> null;
            };
        });
        reservation = command -> {
            throw new AssertionError("reserved without an acknowledged binding");
        };
        seckill.queue.api.QueueSwitch on = new seckill.queue.api.QueueSwitch() {
            @Override
            public boolean on() {
                return true;
            }

            @Override
            public long rate() {
                return 10;
            }
        };
        PlacingPurchase placing = new PlacingPurchase(catalog(), admission(), reservations(),
                new PurchasesInFlight(0, null), metrics(), on, passes);
        PurchaseOutcome outcome = placing.place(new Purchase(7, 1, 1, 99, "203.0.113.1", "r-1", Optional.empty(),
                Optional.of("the-pass")));
        assertThat(outcome, is(new PurchaseOutcome.PassNotRecorded()));
        assertThat(passCalls, contains("refusal", "bind", "release"));
        assertThat(admissionCalls, empty());
    }

    private PurchaseOutcome place(long activityId, long skuId, long quantity) {
        PlacingPurchase placing = new PlacingPurchase(catalog(), admission(), reservations(),
                new PurchasesInFlight(0, null), metrics());
        return placing.place(new Purchase(activityId, skuId, quantity, 99, "203.0.113.1", "r-1", Optional.empty()));
    }

    private ActivityCatalog catalog() {
        return fake(ActivityCatalog.class, (method, args) -> method.equals("find")
                && ((long) args[0] == 7 || (long) args[0] == REHEARSAL) ? Optional.of(ACTIVITY) : Optional.empty());
    }

    private Admission admission() {
        return fake(Admission.class, (method, args) -> {
            switch (method) {
                case "admit" -> {
                    admissionCalls.add("admit");
                    return decision;
                }
                // the real world's halt reads as before; another world's names it
                case "halt" -> admissionCalls.add("halt " + (args.length == 1 || args[0] == seckill.redis.World.REAL
                        ? args[args.length - 1] : args[0] + " " + args[1]));
                case "soldOut" -> admissionCalls.add("soldOut " + args[0] + "/" + args[1]);
                case "throttledAtReservation" -> {
                    admissionCalls.add("throttledAtReservation " + args[1] + " " + args[2]);
                    return new AdmissionDecision.Throttled("BUYER", 2, 1, 0, 2);
                }
                case "reservedLeaving" -> admissionCalls.add("reservedLeaving " + args[0] + "/" + args[1] + ": " + args[2]);
                default -> throw new AssertionError("unexpected call " + method);
            }
            return null;
        });
    }

    private Reserving reservations() {
        return fake(Reserving.class, (method, args) -> {
            if (!method.equals("reserve")) {
                throw new AssertionError("unexpected call " + method);
            }
            return reservation.apply(args[0]);
        });
    }

    private static MetricRegistry metrics() {
        Counter counter = fake(Counter.class, (method, args) -> null);
        return fake(MetricRegistry.class, (method, args) -> counter);
    }

    private interface Answer {
        Object answer(String method, Object[] args);
    }

    private static <T> T fake(Class<T> type, Answer answer) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                (proxy, method, args) -> answer.answer(method.getName(), args)));
    }
}
