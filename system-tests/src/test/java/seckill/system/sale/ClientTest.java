package seckill.system.sale;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import seckill.client.ActivityView;
import seckill.client.Buying;
import seckill.client.LaunchedActivity;
import seckill.client.NewActivity;
import seckill.client.PurchaseRequest;
import seckill.client.Reservation;
import seckill.client.ReservationView;
import seckill.client.SeckillApi;
import seckill.client.SeckillClients;
import seckill.client.SeckillProblem;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.instanceOf;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The typed client against the real service: launching, buying, typed problems, a buyer's own
 * reservations read from the primary stores, and the purchase protocol when the answer is lost
 * (Redis paused from outside longer than the client waits) or the SKU sold out before the holder's
 * retry. Outcomes are read from the ledger.
 */
class ClientTest extends ServiceTest {

    private static final long SKU = 4401;

    private SaleFixture sale;
    private SeckillApi buyer;

    @BeforeEach
    void setUp() {
        sale = new SaleFixture(target.getUri(), db);
        buyer = new SaleFixture(target.getUri(), db).buyer();
    }

    @Test
    void launchBuyAndFindOnesReservationsThroughTheClient() throws Exception {
        String key = UUID.randomUUID().toString();
        NewActivity launch = new NewActivity("client sale", Instant.now().minusSeconds(5).toString(),
                Instant.now().plusSeconds(600).toString(), 600L, List.of(new NewActivity.Sku(SKU, 1, 1, 1)));
        LaunchedActivity launched = sale.admin().launch(key, launch);
        // the same idempotency key returns the same activity
        assertThat(sale.admin().launch(key, launch).activityId(), is(launched.activityId()));
        long activity = launched.activityId();
        ActivityView view = buyer.activity(activity);
        assertThat(view.state(), is("OPEN"));
        assertThat(view.skus().getFirst().stock(), is(1L));
        // the service's clock, for countdowns: within a minute of this one
        assertThat(Math.abs(java.time.Duration.between(Instant.parse(view.serverTime()), Instant.now()).toSeconds())
                < 60, is(true));

        long holder = activity * 1000 + 1;
        Reservation first = buyer.purchase(activity, holder, null, new PurchaseRequest(SKU, 1, "c-1"));
        assertThat(first.isNew(), is(true));
        // straight from the primary stores: listed at once, before or after its order exists
        List<ReservationView> mine = buyer.reservations(activity, holder).reservations();
        assertThat(mine.stream().map(ReservationView::reservationId).toList(), contains(first.reservationId()));
        assertThat(mine.getFirst().skuId(), is(SKU));
        assertThat(buyer.reservations(activity, holder + 1).reservations(), empty());

        SeckillProblem.SoldOut soldOut = assertThrows(SeckillProblem.SoldOut.class,
                () -> buyer.purchase(activity, holder + 1, null, new PurchaseRequest(SKU, 1, "c-2")));
        assertThat(soldOut.reservations().orElseThrow(), is("/api/v1/activities/" + activity + "/reservations"));

        // the holder's retry after the sale sold out is told sold out from memory; the client looks up instead
        Reservation again = new Buying(buyer).buy(activity, holder, null, new PurchaseRequest(SKU, 1, "c-1b"),
                Instant.now().plusSeconds(10));
        assertThat(again.reservationId(), is(first.reservationId()));

        SaleFixture.await("the order", Duration.ofSeconds(30), () -> sale.orders(activity) == 1);
        ReservationView ordered = buyer.reservations(activity, holder).reservations().getFirst();
        assertThat(ordered.status(), is("ORDERED"));
        assertThat(ordered.quantity(), is(1));
        assertThat(sale.count("SELECT COUNT(*) FROM seckill_order WHERE activity_id = ? AND user_id = ?", activity,
                holder), is(1L));
    }

    @Test
    void problemsArriveTyped() {
        long upcoming = sale.createActivity(Instant.now().plusSeconds(3600), Instant.now().plusSeconds(7200), SKU, 5, 1);
        SeckillProblem.NotStarted notStarted = assertThrows(SeckillProblem.NotStarted.class,
                () -> buyer.purchase(upcoming, 7, null, new PurchaseRequest(SKU, 1, "early")));
        assertThat(notStarted.startsAt().isPresent(), is(true));
        assertThat(notStarted.retryAfter().isPresent(), is(true));
        SeckillProblem unknown = assertThrows(SeckillProblem.class,
                () -> buyer.purchase(upcoming + 1_000_000, 7, null, new PurchaseRequest(SKU, 1, "nowhere")));
        assertThat(unknown.status(), is(404));
        assertThat(unknown.code(), is("ACTIVITY_NOT_FOUND"));
        assertThat(assertThrows(SeckillProblem.class,
                () -> SeckillClients.admin(target.getUri(), "wrong-token").sales()).status(), is(401));
    }

    @Test
    void aPurchaseWhoseAnswerIsLostIsFoundNotReportedLost() throws Exception {
        long activity = sale.createOpenActivity(SKU, 10, 1);
        long user = activity * 1000 + 5;
        // the client waits 300 ms for an answer; Redis is paused (from outside the service) for 1 s, so the
        // reservation happens after the client gave up on it
        SeckillApi impatient = new SaleFixture(target.getUri(), db).buyer(Duration.ofMillis(300));
        Reservation reservation;
        try (ExecutorService pool = Executors.newSingleThreadExecutor()) {
            SaleFixture.pauseRedis(redis, 1_000);
            Future<Reservation> bought = pool.submit(() -> new Buying(impatient).buy(activity, user, null,
                    new PurchaseRequest(SKU, 1, "lost-1"), Instant.now().plusSeconds(20)));
            reservation = bought.get();
        }
        SaleFixture.await("the order", Duration.ofSeconds(30), () -> sale.orders(activity) == 1);
        assertThat(sale.count("SELECT COUNT(*) FROM seckill_order WHERE activity_id = ? AND user_id = ?", activity, user),
                is(1L));
        assertThat(sale.column("SELECT reservation_id FROM seckill_order WHERE activity_id = ?", activity),
                contains(reservation.reservationId()));
        assertThat(buyer.reservations(activity, user).reservations().getFirst(), instanceOf(ReservationView.class));
    }
}
