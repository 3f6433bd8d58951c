package seckill.system.sale;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.helidon.microprofile.testing.junit5.AddConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import seckill.client.Buying;
import seckill.client.PurchaseRequest;
import seckill.client.QueueEvents;
import seckill.client.QueuePlace;
import seckill.client.ReservationView;
import seckill.client.SeckillApi;
import seckill.client.SeckillClients;
import seckill.client.SeckillProblem;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;
import seckill.system.TestIdentity;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The typed client through the waiting line (issue #33), against the real service with the queue on at one buyer a
 * second and event streams that end every 2 s (so the client reconnects with {@code Last-Event-ID}): {@link Buying}
 * is refused for want of a pass, joins, follows its place until its turn, buys with the pass and returns the order the
 * stream pushes, whose number is the one {@code seckill_order} holds; {@link QueueEvents} resumes across reconnects
 * without being told the same state twice; a buyer still in line when the last unit goes is told sold out and holds
 * nothing. Outcomes read from the ledger and the line's keys in Redis.
 */
@AddConfig(key = "seckill.queue.enabled", value = "true")
@AddConfig(key = "seckill.queue.rate", value = "1")
@AddConfig(key = "seckill.queue.tick-millis", value = "50")
@AddConfig(key = "seckill.queue.pass-seconds", value = "20")
@AddConfig(key = "seckill.queue.events-poll-millis", value = "100")
@AddConfig(key = "seckill.queue.events-max-seconds", value = "2")
class BuyingThroughTheLineTest extends ServiceTest {

    private static final long SKU = 4501;

    private SaleFixture sale;
    private SeckillApi api;
    private QueueEvents events;

    @BeforeEach
    void setUp() {
        sale = new SaleFixture(target.getUri(), db);
        api = sale.buyer();
        events = SeckillClients.queueEvents(target.getUri(), TestIdentity::token);
    }

    @Test
    void buyingJoinsTheLineBuysOnItsTurnAndReturnsTheOrderTheLedgerHolds() throws Exception {
        long activity = sale.createOpenActivity(SKU, 10, 1);
        long first = activity * 1000;
        // three buyers ahead, who never buy: their passes go out one a second before ours
        for (long ahead = first + 1; ahead <= first + 3; ahead++) {
            assertThat(api.joinQueue(activity, ahead, null).state(), is("WAITING"));
        }
        long buyer = first + 10;
        PurchaseRequest request = new PurchaseRequest(SKU, 1, "line-" + buyer);
        assertThrows(SeckillProblem.QueuePassRequired.class, () -> api.purchase(activity, buyer, null, request));

        ReservationView order = new Buying(api, events)
                .buyAndAwaitOrder(activity, buyer, null, request, Instant.now().plusSeconds(60));

        assertThat(order.status(), is("ORDERED"));
        assertThat(order.orderNo(), notNullValue());
        assertThat(sale.column("SELECT order_no FROM seckill_order WHERE activity_id = ? AND user_id = ?",
                activity, buyer), is(List.of(order.orderNo())));
        assertThat(sale.column("SELECT reservation_id FROM seckill_order WHERE order_no = ?", order.orderNo()),
                is(List.of(order.reservationId())));
        // it bought with its own pass, which the line marked used; the buyers ahead hold none
        assertThat(redis.hget("sk:{q:a" + activity + "}:done", Long.toString(buyer)), is("u"));
        assertThat(sale.column("SELECT user_id FROM seckill_order WHERE activity_id = ? AND user_id <> ?",
                activity, buyer), empty());
        // the same purchase again is the same reservation, not a second order
        ReservationView again = new Buying(api, events)
                .buyAndAwaitOrder(activity, buyer, null, request, Instant.now().plusSeconds(30));
        assertThat(again.orderNo(), is(order.orderNo()));
        assertThat(sale.count("SELECT COUNT(*) FROM seckill_order WHERE activity_id = ? AND user_id = ?", activity,
                buyer), is(1L));
    }

    @Test
    void aBuyerStillInLineWhenTheLastUnitGoesIsToldSoldOutAndHoldsNothing() throws Exception {
        long activity = sale.createOpenActivity(SKU + 2, 1, 1);
        long first = activity * 1000;
        long ahead = first + 1;
        long buyer = first + 10;
        api.joinQueue(activity, ahead, null);
        PurchaseRequest request = new PurchaseRequest(SKU + 2, 1, "line-" + buyer);
        java.util.concurrent.CompletableFuture<ReservationView> waiting = java.util.concurrent.CompletableFuture
                .supplyAsync(() -> {
                    try {
                        return new Buying(api, events).buyAndAwaitOrder(activity, buyer, null, request,
                                Instant.now().plusSeconds(60));
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
        SaleFixture.await("the buyer ahead called", Duration.ofSeconds(20),
                () -> "YOUR_TURN".equals(api.queuePlace(activity, ahead, null).state()));
        String pass = api.queuePlace(activity, ahead, null).pass();
        api.purchase(activity, ahead, null, pass, new PurchaseRequest(SKU + 2, 1, "line-" + ahead));

        java.util.concurrent.ExecutionException told = assertThrows(java.util.concurrent.ExecutionException.class,
                () -> waiting.get(60, java.util.concurrent.TimeUnit.SECONDS));
        assertThat(String.valueOf(told.getCause()), told.getCause() instanceof SeckillProblem.SoldOut, is(true));
        SaleFixture.await("the unit ordered", Duration.ofSeconds(20), () -> sale.orders(activity) == 1);
        assertThat(sale.column("SELECT user_id FROM seckill_order WHERE activity_id = ?", activity),
                is(List.of(Long.toString(ahead))));
        assertThat(api.reservations(activity, buyer).reservations(), empty());
    }

    @Test
    void theEventStreamResumesWithLastEventIdAndTellsEachStateOnce() throws Exception {
        long activity = sale.createOpenActivity(SKU + 1, 10, 1);
        long first = activity * 1000;
        for (long ahead = first + 1; ahead <= first + 4; ahead++) {
            api.joinQueue(activity, ahead, null);
        }
        long buyer = first + 10;
        QueuePlace joined = api.joinQueue(activity, buyer, null);
        assertThat(joined.position(), is(5L));
        List<QueueEvents.Event> seen = new ArrayList<>();
        long startedAt = System.nanoTime();
        QueueEvents.Event turn = events.follow(activity, buyer, joined.ticket(), null, Instant.now().plusSeconds(60),
                event -> {
                    seen.add(event);
                    return !(event instanceof QueueEvents.PlaceChanged changed
                            && changed.place().state().equals("YOUR_TURN"));
                });
        double seconds = (System.nanoTime() - startedAt) / 1e9;
        // streams of 2 s over a wait of about 5 s: several reconnects, each resumed after the last id
        assertThat("waited " + seconds + " s", seconds, greaterThan(3.0));
        List<String> ids = seen.stream().map(QueueEvents.Event::id).toList();
        assertThat("ids " + ids, ids.stream().distinct().count(), is((long) ids.size()));
        List<Long> positions = seen.stream().map(e -> ((QueueEvents.PlaceChanged) e).place())
                .filter(p -> p.state().equals("WAITING")).map(QueuePlace::position).toList();
        for (int i = 1; i < positions.size(); i++) {
            assertThat("positions " + positions, positions.get(i) < positions.get(i - 1), is(true));
        }
        QueuePlace mine = ((QueueEvents.PlaceChanged) turn).place();
        assertThat(mine.pass(), notNullValue());
        // the turn the stream told is the one in Redis: the buyer's pass is out
        assertThat(redis.zscore("sk:{q:a" + activity + "}:passes", Long.toString(buyer)), notNullValue());
        // resuming with the turn's id is told nothing new until something changes: no event within 1.5 s
        List<QueueEvents.Event> after = new ArrayList<>();
        assertThrows(QueueEvents.DeadlinePassed.class, () -> events.follow(activity, buyer, null, turn.id(),
                Instant.now().plusMillis(1500), event -> after.add(event)));
        assertThat(after, empty());
    }
}
