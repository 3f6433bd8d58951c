package seckill.system.edge;

import io.helidon.microprofile.testing.junit5.AddConfig;
import org.junit.jupiter.api.Test;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/** The benchmarks' trivial endpoint answers only when switched on; off, it is a 404 like any unknown path. */
@AddConfig(key = "seckill.baseline.enabled", value = "false")
class BaselineTest extends ServiceTest {

    @Test
    void offItIsNotFound() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        HttpResponse<String> answer = sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/baseline"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{}")));
        assertThat(answer.statusCode(), is(404));
        assertThat(answer.body(), containsString("\"code\":\"NOT_FOUND\""));
    }
}
