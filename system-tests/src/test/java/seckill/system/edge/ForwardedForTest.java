package seckill.system.edge;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import io.helidon.microprofile.testing.junit5.AddConfig;
import org.junit.jupiter.api.Test;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/**
 * Behind a trusted proxy the blocklist sees the address the proxy appended, not the one a client
 * forged at the left of X-Forwarded-For.
 */
@AddConfig(key = "seckill.admission.trust-forwarded-for", value = "true")
@AddConfig(key = "seckill.admission.blocked-ips", value = "203.0.113.7")
class ForwardedForTest extends ServiceTest {

    private static final long SKU = 9101;

    @Test
    void aForgedFirstEntryDoesNotGetABlockedClientPastTheBlocklist() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createOpenActivity(SKU, 10, 1);
        HttpResponse<String> forged = buy(sale, activity, 1, "198.51.100.1, 203.0.113.7");
        assertThat(forged.body(), forged.statusCode(), is(403));
        assertThat(forged.body(), containsString("BLOCKED"));
        // the blocked address on the left is only what a client claims: the proxy saw 198.51.100.1
        HttpResponse<String> claimed = buy(sale, activity, 2, "203.0.113.7, 198.51.100.1");
        assertThat(claimed.body(), claimed.statusCode(), is(202));
    }

    private static HttpResponse<String> buy(SaleFixture sale, long activity, long user, String forwardedFor) {
        return sale.send(SaleFixture.asBuyer(HttpRequest.newBuilder(sale.base.resolve("/api/v1/activities/" + activity
                        + "/purchases")), activity * 100 + user).header("Content-Type", "application/json")
                .header("X-Forwarded-For", forwardedFor)
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"skuId\":%d,\"quantity\":1,\"requestId\":\"f%d\"}".formatted(SKU, user))));
    }
}
