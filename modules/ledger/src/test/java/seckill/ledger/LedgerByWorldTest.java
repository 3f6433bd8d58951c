package seckill.ledger;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import seckill.ledger.api.AmountDue;
import seckill.ledger.api.ExpiredOrder;
import seckill.ledger.api.OrderStatus;
import seckill.ledger.api.OrderView;
import seckill.ledger.api.Payment;
import seckill.ledger.api.PaymentResult;
import seckill.ledger.api.StockRefill;
import seckill.ledger.api.catalogue.Activity;
import seckill.ledger.api.catalogue.NewActivity;
import seckill.ledger.api.catalogue.SkuLine;
import seckill.ledger.sql.OrderWriter;
import seckill.redis.World;
import seckill.reservation.api.EventPosition;
import seckill.reservation.api.ReservationEvent;
import seckill.reservation.api.ReservationId;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.instanceOf;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Issue #34 (docs/rehearsal.md): the use cases holding a reservation id or an order number choose the ledger by
 * its world, on a real MariaDB with a real ledger and a shadow one. A rehearsal reservation and a real one with
 * the same sequence each have their order in their own ledger; the rehearsal's number starts with R; looking it
 * up, tracing it, paying it and expiring rehearsals read and change the shadow tables only, and without a
 * shadow ledger a rehearsal's order is unknown.
 */
class LedgerByWorldTest {

    @RegisterExtension
    static final TestLedger REAL = new TestLedger().withSettlementTables();

    @RegisterExtension
    static final TestLedger SHADOW = TestLedger.shadow().withSettlementTables();

    private static NewActivity activity(String name) {
        return new NewActivity(name, Instant.now().minusSeconds(1), Instant.now().plus(Duration.ofHours(1)),
                Duration.ofMinutes(15), List.of(new SkuLine(1, 10, 1, 1)));
    }

    private static ReservationEvent event(ReservationId id, long user) {
        return new ReservationEvent(id, user, 1, "r-" + id, Instant.now(),
                new EventPosition("test-stream", System.currentTimeMillis() + "-" + (id.sequence() % 1000)), 1);
    }

    private static String realFigures() {
        return REAL.count("SELECT COUNT(*) FROM seckill_order") + "/" + REAL.count("SELECT COUNT(*) FROM seckill_payment")
                + "/" + REAL.count("SELECT COALESCE(SUM(status), 0) FROM seckill_order") + "/"
                + REAL.count("SELECT COUNT(*) FROM stock_sync_outbox");
    }

    @Test
    void aRehearsalsOrderIsLookedUpTracedPaidAndExpiredInTheShadowLedgerOnly() {
        Activity rehearsal = SHADOW.register(activity("rehearsal orders"));
        Activity real = REAL.register(activity("real orders"));
        assertThat(World.of(rehearsal.id()), is(World.REHEARSAL));
        long sequence = System.nanoTime() % 1_000_000_000_000L;
        long user = 34_000 + sequence % 1000;
        ReservationId rehearsed = new ReservationId(rehearsal.id(), 1, 0, sequence);
        ReservationId sold = new ReservationId(real.id(), 1, 0, sequence);
        // the ordering workers of each world write into their own ledger (RehearsalOrdering over the shadow one)
        assertThat(new OrderWriter(SHADOW.db()).writeBatch(List.of(event(rehearsed, user)), a -> Duration.ofMinutes(15),
                Instant.now()), is(1));
        assertThat(new OrderWriter(REAL.db()).writeBatch(List.of(event(sold, user)), a -> Duration.ofMinutes(15),
                Instant.now()), is(1));
        String realBefore = realFigures();

        LedgersByWorld ledgers = new LedgersByWorld(REAL.db(), Optional.of(SHADOW.db()));
        LookingUpOrders lookups = new LookingUpOrders(ledgers);
        OrderView rehearsedOrder = lookups.byReservation(rehearsed).orElseThrow();
        OrderView soldOrder = lookups.byReservation(sold).orElseThrow();
        assertThat(rehearsedOrder.activityId(), is(rehearsal.id()));
        assertThat(rehearsedOrder.orderNo(), startsWith("R"));
        assertThat(rehearsedOrder.orderNo().length(), is(24));
        assertThat(soldOrder.orderNo().substring(1), is(rehearsedOrder.orderNo().substring(1)));
        assertThat(soldOrder.orderNo(), not(startsWith("R")));
        assertThat(lookups.ordersOf(rehearsal.id(), user), is(List.of(rehearsedOrder)));
        assertThat(new TracingTheLedger(ledgers).follow(rehearsed).order().orElseThrow().view(), is(rehearsedOrder));

        PayingOrders payments = new PayingOrders(ledgers);
        assertThat(payments.amountDue(rehearsedOrder.orderNo()), is(new AmountDue.NotPriced()));
        PaymentResult paid = payments.pay(new Payment(rehearsedOrder.orderNo(), "rh-pay-" + sequence,
                new BigDecimal("1.00"), "EUR", Instant.now()), Instant.now());
        assertThat(paid, instanceOf(PaymentResult.Paid.class));
        assertThat(SHADOW.count("SELECT status FROM seckill_order WHERE order_no = ?", rehearsedOrder.orderNo()), is(1L));
        assertThat(SHADOW.count("SELECT COUNT(*) FROM seckill_payment WHERE payment_id = ?", "rh-pay-" + sequence), is(1L));
        assertThat(lookups.byReservation(sold).orElseThrow().status(), is(OrderStatus.PENDING));
        assertThat(realFigures(), is(realBefore));

        // a second rehearsal order, overdue: the rehearsals' sweep expires it in the shadow ledger
        ReservationId late = new ReservationId(rehearsal.id(), 1, 0, sequence + 1);
        new OrderWriter(SHADOW.db()).writeBatch(List.of(event(late, user + 1)), a -> Duration.ofSeconds(1), Instant.now());
        List<ExpiredOrder> expired = new ExpiringOrders(ledgers).expireOverdue(World.REHEARSAL,
                Instant.now().plusSeconds(60), 1000);
        assertThat(expired.stream().map(ExpiredOrder::reservationId).toList(), hasItem(late.toString()));
        assertThat(lookups.byReservation(late).orElseThrow().status(), is(OrderStatus.TIMEOUT));
        assertThat(lookups.byReservation(rehearsed).orElseThrow().status(), is(OrderStatus.PAID));
        assertThat(realFigures(), is(realBefore));
    }

    @Test
    void withoutAShadowLedgerARehearsalsOrderIsUnknown() {
        Activity rehearsal = SHADOW.register(activity("rehearsal unseen"));
        long sequence = System.nanoTime() % 1_000_000_000_000L;
        ReservationId rehearsed = new ReservationId(rehearsal.id(), 1, 0, sequence);
        new OrderWriter(SHADOW.db()).writeBatch(List.of(event(rehearsed, 7)), a -> Duration.ofMinutes(15), Instant.now());
        String orderNo = new LookingUpOrders(new LedgersByWorld(REAL.db(), Optional.of(SHADOW.db())))
                .byReservation(rehearsed).orElseThrow().orderNo();

        LedgersByWorld realOnly = new LedgersByWorld(REAL.db(), Optional.empty());
        assertThat(new LookingUpOrders(realOnly).byReservation(rehearsed), is(Optional.empty()));
        assertThat(new LookingUpOrders(realOnly).ordersOf(rehearsal.id(), 7), is(List.of()));
        assertThat(new TracingTheLedger(realOnly).follow(rehearsed).order(), is(Optional.empty()));
        assertThat(new PayingOrders(realOnly).amountDue(orderNo), is(new AmountDue.NoOrder()));
        assertThat(new PayingOrders(realOnly).pay(new Payment(orderNo, "rh-unknown-" + sequence, new BigDecimal("1.00"),
                "EUR", Instant.now()), Instant.now()), instanceOf(PaymentResult.UnknownOrder.class));
        assertThat(new ExpiringOrders(realOnly).expireOverdue(World.REHEARSAL, Instant.now().plusSeconds(3600), 10),
                is(List.of()));
        assertThat(SHADOW.count("SELECT status FROM seckill_order WHERE order_no = ?", orderNo), is(0L));
    }

    /**
     * A rehearsal's line records its turns left in the shadow ledger (found by the attack on session 48's work:
     * {@code KeepingLineTurns} wrote every world's rows into the real {@code seckill_line_turn_left}, so a rehearsal
     * with the queue on changed a real table). Failed before: the row was in the real table.
     */
    @Test
    void aRehearsalsTurnLeftIsKeptInTheShadowLedgerOnly() {
        Activity rehearsal = SHADOW.register(activity("rehearsal line"));
        Activity real = REAL.register(activity("real line"));
        KeepingLineTurns turns = new KeepingLineTurns(new LedgersByWorld(REAL.db(), Optional.of(SHADOW.db())));
        Instant at = Instant.parse("2030-01-01T10:00:00Z");
        turns.recordLeft(rehearsal.id(), 71, 5, at);
        turns.recordLeft(real.id(), 71, 3, at);
        String rows = "SELECT COUNT(*) FROM seckill_line_turn_left WHERE activity_id = ?";
        assertThat(SHADOW.count(rows, rehearsal.id()), is(1L));
        assertThat("no rehearsal row in the real table", REAL.count(rows, rehearsal.id()), is(0L));
        assertThat(REAL.count(rows, real.id()), is(1L));
        assertThat(SHADOW.count(rows, real.id()), is(0L));
        assertThat(turns.lastLeft(rehearsal.id(), 71), is(5L));
        assertThat(turns.lastLeft(real.id(), 71), is(3L));

        KeepingLineTurns realOnly = new KeepingLineTurns(new LedgersByWorld(REAL.db(), Optional.empty()));
        assertThat("without a shadow ledger a rehearsal has no turns", realOnly.lastLeft(rehearsal.id(), 71), is(0L));
        assertThrows(IllegalStateException.class, () -> realOnly.recordLeft(rehearsal.id(), 71, 6, at));
        assertThat(REAL.count(rows, rehearsal.id()), is(0L));
    }

    @Test
    void aRehearsalsRefillIsKeptAndReconciledInTheShadowOutboxOnly() {
        Activity rehearsal = SHADOW.register(activity("rehearsal outbox"));
        long sequence = System.nanoTime() % 1_000_000_000_000L;
        ReservationId late = new ReservationId(rehearsal.id(), 1, 0, sequence);
        new OrderWriter(SHADOW.db()).writeBatch(List.of(event(late, 9)), a -> Duration.ofSeconds(1), Instant.now());
        LedgersByWorld ledgers = new LedgersByWorld(REAL.db(), Optional.of(SHADOW.db()));
        new ExpiringOrders(ledgers).expireOverdue(World.REHEARSAL, Instant.now().plusSeconds(60), 1000);
        String realBefore = realFigures();

        KeepingTheOutbox outbox = new KeepingTheOutbox(ledgers);
        StockRefill refill = outbox.pendingRefills(World.REHEARSAL, 0, 10_000).stream()
                .filter(r -> r.reservationId().equals(late.toString())).findFirst().orElseThrow();
        assertThat(refill.activityId(), is(rehearsal.id()));
        assertThat(outbox.pendingRefills(0, 10_000).stream().map(StockRefill::reservationId).toList(),
                not(hasItem(late.toString())));
        assertThat(outbox.pendingRefills(World.REAL, 0, 10_000).stream().map(StockRefill::reservationId).toList(),
                not(hasItem(late.toString())));
        assertThat(outbox.refillBacklog(World.REHEARSAL) >= 1, is(true));

        AnsweringReconciliation reconciliation = new AnsweringReconciliation(ledgers);
        outbox.refillAttemptFailed(World.REHEARSAL, refill.id());
        outbox.refillApplied(World.REHEARSAL, refill.id(), Instant.now());
        assertThat(reconciliation.appliedRefills(rehearsal.id(), 1, 0).stream().map(StockRefill::id).toList(),
                is(List.of(refill.id())));
        assertThat(reconciliation.appliedRefillUnits(rehearsal.id(), 1, 0), is(1L));
        assertThat(reconciliation.figures(rehearsal.id(), 1).total(), is(10L));
        // outbox ids of the two ledgers overlap (only activity ids are apart): the world says which outbox
        assertThat(reconciliation.refillsLost(World.REHEARSAL, List.of(refill.id())), is(1));
        assertThat(outbox.pendingRefills(World.REHEARSAL, refill.id() - 1, 1).get(0).id(), is(refill.id()));
        assertThat(realFigures(), is(realBefore));

        LedgersByWorld realOnly = new LedgersByWorld(REAL.db(), Optional.empty());
        assertThat(new KeepingTheOutbox(realOnly).pendingRefills(World.REHEARSAL, 0, 10), is(List.of()));
        assertThat(new KeepingTheOutbox(realOnly).refillBacklog(World.REHEARSAL), is(0L));
        assertThat(new AnsweringReconciliation(realOnly).refillsLost(World.REHEARSAL, List.of(refill.id())), is(0));
        assertThrows(IllegalStateException.class, () -> new AnsweringReconciliation(realOnly).figures(rehearsal.id(), 1));
        assertThat(SHADOW.count("SELECT COUNT(*) FROM stock_sync_outbox WHERE id = ? AND status = 0", refill.id()), is(1L));
    }
}
