package seckill.ledger.sql;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import seckill.ledger.TestLedger;
import seckill.ledger.api.AmountDue;
import seckill.ledger.api.OrderView;
import seckill.ledger.api.catalogue.Activity;
import seckill.ledger.api.catalogue.NewActivity;
import seckill.ledger.api.catalogue.SkuLine;
import seckill.ledger.api.catalogue.SkuPrice;
import seckill.reservation.api.EventPosition;
import seckill.reservation.api.ReservationEvent;
import seckill.reservation.api.ReservationId;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * A SKU's name, price and picture are kept in its stock row, and the order the worker writes takes
 * the price it was sold at from there (issue #33); SKUs without them read back as before.
 */
class SoldAtPriceTest {

    @RegisterExtension
    static final TestLedger LEDGER = new TestLedger();

    private static final SkuPrice PRICE = new SkuPrice(new BigDecimal("19.9"), "EUR");

    @Test
    void aSkusShowingIsStoredAndItsOrdersRecordThePriceTheyWereSoldAt() {
        SkuLine priced = new SkuLine(1, 10, 3, 1, Optional.of("Phone <b>15</b> & co"), Optional.of(PRICE),
                Optional.of("phone-15.webp"));
        SkuLine plain = new SkuLine(2, 10, 1, 1);
        Activity activity = LEDGER.register(new NewActivity("sold at price", Instant.now().minusSeconds(1),
                Instant.now().plus(Duration.ofHours(1)), Duration.ofMinutes(15), List.of(priced, plain)));

        Activity read = new ActivityRows(LEDGER.db()).find(activity.id()).orElseThrow();
        assertThat(read.skus(), is(List.of(priced, plain)));
        assertThat(read.sku(1).orElseThrow().price().orElseThrow().amountText(), is("19.90"));

        long user = activity.id() * 1_000L;
        ReservationEvent two = event(new ReservationId(activity.id(), 1, 0, activity.id() * 100 + 1), user, 2);
        ReservationEvent one = event(new ReservationId(activity.id(), 2, 0, activity.id() * 100 + 2), user, 1);
        assertThat(new OrderWriter(LEDGER.db()).writeBatch(List.of(two, one), a -> Duration.ofMinutes(15),
                Instant.now()), is(2));

        OrderRows orders = new OrderRows(LEDGER.db());
        OrderView pricedOrder = orders.byReservation(two.id().toString()).orElseThrow();
        assertThat(pricedOrder.price(), is(Optional.of(PRICE)));
        assertThat(orders.byReservation(one.id().toString()).orElseThrow().price(), is(Optional.empty()));
        assertThat(orders.ordersOf(activity.id(), user).get(0).price(), is(Optional.of(PRICE)));

        LedgerRows ledger = new LedgerRows(LEDGER.db());
        assertThat("two units at 19.90", ledger.amountDue(pricedOrder.orderNo()),
                is(new AmountDue.Priced(new BigDecimal("39.80"), "EUR")));
        String plainNo = orders.byReservation(one.id().toString()).orElseThrow().orderNo();
        assertThat(ledger.amountDue(plainNo), is(new AmountDue.NotPriced()));
        assertThat(ledger.amountDue("000000000000000000000000"), is(new AmountDue.NoOrder()));

        assertThat(new TraceRows(LEDGER.db()).follow(two.id().toString()).order().orElseThrow().view().price(),
                is(Optional.of(PRICE)));
    }

    private static ReservationEvent event(ReservationId id, long user, int quantity) {
        return new ReservationEvent(id, user, quantity, "r-" + id, Instant.now(),
                new EventPosition("test-stream", System.currentTimeMillis() + "-" + id.sequence()), 1);
    }
}
