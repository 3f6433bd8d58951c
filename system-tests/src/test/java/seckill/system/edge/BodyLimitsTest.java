package seckill.system.edge;

import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import io.helidon.microprofile.testing.junit5.AddConfig;
import org.junit.jupiter.api.Test;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;
import seckill.system.TestIdentity;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/** Bodies are bounded before they are read: 16 KiB on public endpoints, 1 MiB on admin, 413 problem+json. */
@AddConfig(key = "seckill.payment.hmac-key", value = "body-limits-test-key-of-at-least-32-characters")
class BodyLimitsTest extends ServiceTest {

    @Test
    void oversizedBodiesAreRefusedWith413BeforeTheyAreRead() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createOpenActivity(9201, 5, 1);

        // declared too large: refused unread; a client sending a large body the way HTTP offers for it
        // (Expect: 100-continue) gets the 413 before it has sent a byte of it
        assertTooLarge(post(sale, "/api/v1/payments/callback", fixed(64 * 1024 * 1024), null));
        assertTooLarge(post(sale, "/api/v1/activities/" + activity + "/purchases", fixed(20 * 1024), "7"));
        assertTooLarge(post(sale, "/api/v1/admin/activities", fixed(1024 * 1024 + 1), null));
        // no Content-Length: cut off as it passes the limit
        HttpResponse<String> streamed = sale.send(HttpRequest.newBuilder(
                        sale.base.resolve("/api/v1/activities/" + activity + "/purchases"))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + TestIdentity.token(7))
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body(16 * 1024 + 64)))));
        assertTooLarge(streamed);
        // within the limits nothing changes: a small purchase still sells
        assertThat(sale.purchase(activity, 8, 9201, 1, "small").statusCode(), is(202));
    }

    private static void assertTooLarge(HttpResponse<String> response) {
        assertThat(response.body(), response.statusCode(), is(413));
        assertThat(response.body(), containsString("PAYLOAD_TOO_LARGE"));
        assertThat(response.headers().firstValue("Content-Type").orElse(""), containsString("problem+json"));
    }

    private static HttpResponse<String> post(SaleFixture sale, String path, HttpRequest.BodyPublisher body, String user) {
        HttpRequest.Builder request = HttpRequest.newBuilder(sale.base.resolve(path)).expectContinue(true)
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN)
                .POST(body);
        if (user != null) {
            SaleFixture.asBuyer(request, user);
        }
        return sale.send(request);
    }

    private static HttpRequest.BodyPublisher fixed(int size) {
        return HttpRequest.BodyPublishers.ofByteArray(body(size));
    }

    private static byte[] body(int size) {
        byte[] json = new byte[size];
        Arrays.fill(json, (byte) ' ');
        byte[] start = "{\"pad\":\"".getBytes(StandardCharsets.UTF_8);
        System.arraycopy(start, 0, json, 0, start.length);
        json[size - 2] = '"';
        json[size - 1] = '}';
        return json;
    }
}
