package seckill.system.edge;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/**
 * The dev sign-in (on in the tests' configuration, as dev mode turns it on): a token minted for an id
 * is a real bearer token, verified like any other, and buys and reads as that buyer only.
 */
class DevSignInTest extends ServiceTest {

    @Test
    void aSignedInBuyerBuysAndReadsAsThemselves() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createOpenActivity(3801, 5, 1);
        long buyer = activity * 1000 + 5;
        String token = signIn(sale, "{\"userId\":" + buyer + "}");
        HttpResponse<String> bought = sale.send(HttpRequest.newBuilder(sale.base.resolve(
                        "/api/v1/activities/" + activity + "/purchases")).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"skuId\":3801,\"quantity\":1,\"requestId\":\"dev\"}")));
        assertThat(bought.body(), bought.statusCode(), is(202));
        SaleFixture.await("the order", Duration.ofSeconds(20), () -> sale.orders(activity) == 1);
        assertThat(sale.count("SELECT COUNT(*) FROM seckill_order WHERE activity_id = ? AND user_id = ?", activity, buyer),
                is(1L));
        HttpResponse<String> mine = sale.send(HttpRequest.newBuilder(sale.base.resolve(
                "/api/v1/activities/" + activity + "/reservations")).header("Authorization", "Bearer " + token).GET());
        assertThat(mine.body(), containsString("\"skuId\":3801"));

        for (String bad : new String[] {"{}", "{\"userId\":0}", "{\"userId\":\"x\"}", "not json"}) {
            HttpResponse<String> refused = post(sale, bad);
            assertThat(bad + ": " + refused.body(), refused.statusCode(), is(400));
        }
    }

    static String signIn(SaleFixture sale, String body) {
        HttpResponse<String> answer = post(sale, body);
        assertThat(answer.body(), answer.statusCode(), is(200));
        return SaleFixture.field(answer.body(), "token");
    }

    static HttpResponse<String> post(SaleFixture sale, String body) {
        return sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/dev/sign-in"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
    }
}
