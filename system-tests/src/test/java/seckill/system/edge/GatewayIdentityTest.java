package seckill.system.edge;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;

import io.helidon.microprofile.testing.junit5.AddConfig;
import org.junit.jupiter.api.Test;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;
import seckill.system.TestIdentity;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * The gateway mode (issue #36, item 1): {@code X-User-Id} counts only with the gateway's proof, an
 * HMAC of the id and a timestamp under the shared key, within the window. A bare header, a stale
 * or forged proof, or a proof of another id is {@code 401}; the gateway's own request buys. Outcomes
 * are read from the ledger.
 */
@AddConfig(key = "seckill.identity.mode", value = "gateway")
@AddConfig(key = "seckill.identity.gateway.hmac-key", value = GatewayIdentityTest.KEY)
@AddConfig(key = "seckill.identity.gateway.window-seconds", value = "30")
class GatewayIdentityTest extends ServiceTest {

    static final String KEY = "gateway-shared-key-of-at-least-32-characters";
    private static final long SKU = 3701;

    @Test
    void onlyTheGatewaysSignedHeaderNamesTheBuyer() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createOpenActivity(SKU, 10, 1);
        long buyer = activity * 1000 + 1;
        long now = Instant.now().getEpochSecond();

        HttpResponse<String> bare = sale.send(purchase(sale, activity, "bare").header("X-User-Id", Long.toString(buyer)));
        IdentityTest.assertUnauthenticated(bare);
        HttpResponse<String> stale = sale.send(purchase(sale, activity, "stale").header("X-User-Id", Long.toString(buyer))
                .header("X-User-Signature", TestIdentity.gatewaySignature(KEY, buyer, now - 120)));
        IdentityTest.assertUnauthenticated(stale);
        HttpResponse<String> future = sale.send(purchase(sale, activity, "future").header("X-User-Id", Long.toString(buyer))
                .header("X-User-Signature", TestIdentity.gatewaySignature(KEY, buyer, now + 120)));
        IdentityTest.assertUnauthenticated(future);
        HttpResponse<String> forged = sale.send(purchase(sale, activity, "forged").header("X-User-Id", Long.toString(buyer))
                .header("X-User-Signature", TestIdentity.gatewaySignature("not-the-gateway-key-but-32-characters-long", buyer, now)));
        IdentityTest.assertUnauthenticated(forged);
        HttpResponse<String> otherId = sale.send(purchase(sale, activity, "other").header("X-User-Id", Long.toString(buyer))
                .header("X-User-Signature", TestIdentity.gatewaySignature(KEY, buyer + 1, now)));
        IdentityTest.assertUnauthenticated(otherId);
        HttpResponse<String> garbled = sale.send(purchase(sale, activity, "garbled").header("X-User-Id", Long.toString(buyer))
                .header("X-User-Signature", "t=" + now + ",v1=zz"));
        IdentityTest.assertUnauthenticated(garbled);
        // a bearer token is not this mode's proof
        HttpResponse<String> bearer = sale.send(purchase(sale, activity, "bearer")
                .header("Authorization", "Bearer " + TestIdentity.token(buyer)));
        IdentityTest.assertUnauthenticated(bearer);
        assertThat("nothing was bought by any refused request", sale.orders(activity), is(0L));

        HttpResponse<String> signed = sale.send(purchase(sale, activity, "signed").header("X-User-Id", Long.toString(buyer))
                .header("X-User-Signature", TestIdentity.gatewaySignature(KEY, buyer, now)));
        assertThat(signed.body(), signed.statusCode(), is(202));
        SaleFixture.await("the gateway's buyer's order", Duration.ofSeconds(20), () -> sale.orders(activity) == 1);
        assertThat(sale.count("SELECT COUNT(*) FROM seckill_order WHERE activity_id = ? AND user_id = ?", activity, buyer),
                is(1L));
        HttpResponse<String> mine = sale.send(HttpRequest.newBuilder(sale.base.resolve(
                        "/api/v1/activities/" + activity + "/reservations")).GET()
                .header("X-User-Id", Long.toString(buyer))
                .header("X-User-Signature", TestIdentity.gatewaySignature(KEY, buyer, Instant.now().getEpochSecond())));
        assertThat(mine.body(), mine.statusCode(), is(200));
        assertThat(mine.body(), mine.body().contains("reservationId"), is(true));
    }

    private static HttpRequest.Builder purchase(SaleFixture sale, long activity, String requestId) {
        return HttpRequest.newBuilder(sale.base.resolve("/api/v1/activities/" + activity + "/purchases"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"skuId\":" + SKU + ",\"quantity\":1,\"requestId\":\"" + requestId + "\"}"));
    }
}
