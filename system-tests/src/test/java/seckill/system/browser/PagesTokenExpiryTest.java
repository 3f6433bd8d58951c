package seckill.system.browser;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.helidon.microprofile.testing.junit5.AddConfig;
import org.junit.jupiter.api.Test;
import seckill.client.NewActivity;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * A buyer queued longer than their purchase token lives: the page's retry is refused
 * {@code 403 TOKEN_INVALID}, the page asks for a new captcha, and the buyer buys with it.
 */
@AddConfig(key = "seckill.admission.token-keys", value = "k1=pages-expiry-test-key-of-some-length")
@AddConfig(key = "seckill.admission.token-required", value = "true")
@AddConfig(key = "seckill.admission.token-ttl-seconds", value = "2")
@AddConfig(key = "seckill.admission.buyer-rate", value = "1")
@AddConfig(key = "seckill.admission.buyer-window-millis", value = "4000")
class PagesTokenExpiryTest extends ServiceTest {

    @Test
    void aTokenThatExpiredInTheQueueIsReplacedThroughANewCaptcha() throws Exception {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        try (Browser browser = Browser.start()) {
            BuyerPage page = new BuyerPage(browser, sale, redis);
            long activity = BuyerPage.launch(sale, Instant.now().minusSeconds(5),
                    List.of(new NewActivity.Sku(9551, 5, 1, 1)));
            long buyer = activity * 1000 + 1;
            page.open(activity, buyer);
            String first = page.solveCaptcha(null);
            // the buyer's other device buys the SKU: the page's attempt waits out a 4 s window, longer
            // than its 2 s token lives
            HttpResponse<String> elsewhere = sale.purchaseWithToken(activity, buyer, 9551,
                    sale.solvedToken(redis, activity, buyer), "elsewhere");
            assertThat(elsewhere.body(), elsewhere.statusCode(), is(202));
            browser.byId("buy").click();
            browser.await("a new captcha after the token expired", Duration.ofSeconds(15),
                    d -> browser.text("status").startsWith("Your check has expired"));
            page.solveCaptcha(first);
            browser.byId("buy").click();
            browser.await("the order", Duration.ofSeconds(30), d -> browser.text("status").startsWith("Ordered"));
            // the page's attempt with the new token is told of the other device's reservation and shows it
            assertThat(sale.column("SELECT request_id FROM seckill_order WHERE activity_id = ? AND user_id = ?",
                    activity, buyer), is(List.of(activity + "/9551/" + buyer + "/elsewhere")));
        }
    }
}
