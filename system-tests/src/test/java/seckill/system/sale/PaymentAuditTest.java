package seckill.system.sale;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import seckill.dev.api.DevServers;
import seckill.system.PaymentCallbacks;
import seckill.system.SaleFixture;
import seckill.system.SecondInstance;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * A payment's audit row is never lost (issue #29, item 11; issue #36, item 5). The service's database
 * connection is killed from outside after the order's PENDING to PAID change and before the audit
 * row (the payment table is held locked meanwhile, so the kill lands exactly there). Both are one
 * transaction, so the order was never paid without its row: the kill leaves neither, and the payment
 * side's retry, made as it does until it is answered 200, writes both.
 */
@AddConfig(key = "seckill.admission.token-required", value = "false")
@AddConfig(key = "seckill.payment.hmac-key", value = PaymentCallbacks.PAYMENT_KEY)
@AddConfig(key = "seckill.payment.price", value = "99.50")
@AddConfig(key = "seckill.payment.currency", value = "CNY")
class PaymentAuditTest extends ServiceTest {

    private static final long SKU = 29_111;

    @Inject
    DevServers devServers;

    @Test
    void aPaymentWhoseAuditRowWasCutOffIsAuditedByTheRetry() throws Exception {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createOpenActivity(SKU, 5, 1);
        long buyer = activity * 1000 + 1;
        assertThat(sale.purchaseRetrying(activity, buyer, SKU, 1, "audit-1").statusCode(), is(202));
        SaleFixture.await("the order", Duration.ofSeconds(30), () -> sale.orders(activity) == 1);
        String orderNo = sale.column("SELECT order_no FROM seckill_order WHERE activity_id = ?", activity).get(0);
        String paymentId = "p-audit-" + activity;

        Map<String, String> stores = SecondInstance.storesOf(config, devServers);
        try (Connection holder = SecondInstance.ledgerConnection(stores);
             Statement statement = holder.createStatement()) {
            statement.execute("LOCK TABLES seckill_payment WRITE");
            CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(() -> pay(sale, orderNo, paymentId));
            AtomicLong blocked = new AtomicLong();
            SaleFixture.await("the service's audit insert waiting on the lock", Duration.ofSeconds(30), () -> {
                try (ResultSet rows = holder.createStatement().executeQuery("SELECT ID FROM information_schema.PROCESSLIST"
                        + " WHERE ID <> CONNECTION_ID() AND DB = DATABASE() AND INFO LIKE '%INTO seckill_payment%'")) {
                    if (rows.next()) {
                        blocked.set(rows.getLong(1));
                        return true;
                    }
                    return false;
                } catch (java.sql.SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat("while its audit row waits, the order's status change is not visible either",
                    sale.count("SELECT status FROM seckill_order WHERE order_no = ?", orderNo), is(0L));
            statement.execute("KILL " + blocked.get());
            statement.execute("UNLOCK TABLES");
            HttpResponse<String> cut = first.get(30, TimeUnit.SECONDS);
            assertThat(cut.body(), cut.statusCode() != 200, is(true));
        }
        assertThat(sale.count("SELECT COUNT(*) FROM seckill_payment WHERE payment_id = ?", paymentId), is(0L));
        assertThat("the cut-off payment left the order unpaid, not paid without a row",
                sale.count("SELECT status FROM seckill_order WHERE order_no = ?", orderNo), is(0L));

        HttpResponse<String> retry = pay(sale, orderNo, paymentId);
        assertThat(retry.body(), retry.statusCode(), is(200));
        assertThat("the retry wrote the audit row", sale.column(
                "SELECT outcome FROM seckill_payment WHERE payment_id = ? AND order_no = ?", paymentId, orderNo),
                is(java.util.List.of("PAID")));
        assertThat(sale.count("SELECT status FROM seckill_order WHERE order_no = ?", orderNo), is(1L));
    }

    private static HttpResponse<String> pay(SaleFixture sale, String orderNo, String paymentId) {
        String body = "{\"orderNo\":\"%s\",\"paymentId\":\"%s\",\"amount\":99.5,\"currency\":\"CNY\",\"paidAt\":\"%s\"}".formatted(orderNo,
                paymentId, Instant.now());
        return sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/payments/callback"))
                .header("Content-Type", "application/json").header("X-Signature", PaymentCallbacks.sign(body))
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }
}
