package seckill.system.edge;

import java.net.http.HttpResponse;

import io.helidon.microprofile.testing.junit5.AddConfig;
import org.junit.jupiter.api.Test;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/** Without {@code seckill.identity.dev-sign-in} (anywhere outside dev mode) the sign-in does not exist: 404. */
@AddConfig(key = "seckill.identity.dev-sign-in", value = "false")
class DevSignInOffTest extends ServiceTest {

    @Test
    void theSignInIsNotFound() {
        HttpResponse<String> answer = DevSignInTest.post(new SaleFixture(target.getUri(), db), "{\"userId\":42}");
        assertThat(answer.body(), answer.statusCode(), is(404));
        assertThat(answer.body(), containsString("NOT_FOUND"));
        assertThat(answer.body().contains("token"), is(false));
    }
}
