package seckill.system.edge;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;

import io.helidon.microprofile.testing.junit5.AddConfig;
import org.junit.jupiter.api.Test;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;
import seckill.system.TestIdentity;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * The gateway mode with {@code seckill.identity.gateway.trusted-peers}: a correctly signed header
 * from a peer outside those ranges (this test, on loopback) names nobody, and buys nothing.
 */
@AddConfig(key = "seckill.identity.mode", value = "gateway")
@AddConfig(key = "seckill.identity.gateway.hmac-key", value = GatewayIdentityTest.KEY)
@AddConfig(key = "seckill.identity.gateway.trusted-peers", value = "10.20.0.0/16")
class GatewayTrustedPeersTest extends ServiceTest {

    @Test
    void aSignedHeaderFromAnUntrustedPeerIsRefused() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createOpenActivity(3702, 10, 1);
        long buyer = activity * 1000 + 1;
        HttpResponse<String> answer = sale.send(HttpRequest.newBuilder(sale.base.resolve(
                        "/api/v1/activities/" + activity + "/purchases"))
                .header("Content-Type", "application/json").header("X-User-Id", Long.toString(buyer))
                .header("X-User-Signature", TestIdentity.gatewaySignature(GatewayIdentityTest.KEY, buyer,
                        Instant.now().getEpochSecond()))
                .POST(HttpRequest.BodyPublishers.ofString("{\"skuId\":3702,\"quantity\":1,\"requestId\":\"peer\"}")));
        IdentityTest.assertUnauthenticated(answer);
        assertThat(sale.orders(activity), is(0L));
    }
}
