package seckill.system.edge;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.helidon.microprofile.testing.junit5.AddConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import seckill.client.NewActivity;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * A buyer's own requestId text never decides what the ledger does with their reservation (issue #29,
 * item 1): the requestId {@code uk_order_reservation} (the name of the ledger's "already ordered"
 * key), used by one buyer for two SKUs of one activity, still gives two orders, read from MariaDB.
 */
@AddConfig(key = "seckill.admission.token-required", value = "false")
class RequestIdTextTest extends ServiceTest {

    private static final long FIRST_SKU = 29_101;
    private static final long SECOND_SKU = 29_102;

    private SaleFixture sale;

    @BeforeEach
    void fixture() {
        sale = new SaleFixture(target.getUri(), db);
    }

    @Test
    void aRequestIdNamingALedgerKeyUsedForTwoSkusGivesTwoOrders() {
        long activity = sale.admin().launch(UUID.randomUUID().toString(), new NewActivity("request id text",
                Instant.now().minusSeconds(5).toString(), Instant.now().plusSeconds(600).toString(), 600L,
                List.of(new NewActivity.Sku(FIRST_SKU, 5, 1, 1), new NewActivity.Sku(SECOND_SKU, 5, 1, 1)))).activityId();
        long buyer = activity * 1000 + 42;

        HttpResponse<String> first = sale.purchaseRetrying(activity, buyer, FIRST_SKU, 1, "uk_order_reservation");
        assertThat(first.body(), first.statusCode(), is(202));
        HttpResponse<String> second = sale.purchaseRetrying(activity, buyer, SECOND_SKU, 1, "uk_order_reservation");
        assertThat(second.body(), second.statusCode(), is(202));
        String firstId = SaleFixture.field(first.body(), "reservationId");
        String secondId = SaleFixture.field(second.body(), "reservationId");

        // each 202 ends in the ledger: an order, or a failure with its unit back
        for (String id : List.of(firstId, secondId)) {
            SaleFixture.await("reservation " + id + " settled in the ledger", Duration.ofSeconds(30),
                    () -> sale.count("SELECT COUNT(*) FROM seckill_order WHERE reservation_id = ?", id)
                            + sale.count("SELECT COUNT(*) FROM seckill_reservation_failure WHERE reservation_id = ?", id)
                            == 1);
        }
        assertThat("the buyer's first reservation is an order", sale.ordersOf(firstId, buyer), is(1L));
        assertThat("the buyer's second reservation, same requestId, other SKU, is an order", sale.ordersOf(secondId, buyer),
                is(1L));
        assertThat(sale.count("SELECT COUNT(*) FROM seckill_reservation_failure WHERE activity_id = ?", activity), is(0L));
        assertThat(sale.available(activity, FIRST_SKU), is(4L));
        assertThat(sale.available(activity, SECOND_SKU), is(4L));
    }
}
