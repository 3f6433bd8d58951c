package seckill.system.browser;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.helidon.microprofile.testing.junit5.AddConfig;
import org.junit.jupiter.api.Test;
import seckill.client.NewActivity;
import seckill.system.SaleFixture;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * The buyer's page behind the waiting line (issue #33) in a real browser: the queue is on and calls one buyer a
 * second; five buyers joined just ahead. The page's Buy is answered {@code 403 QUEUE_PASS_REQUIRED}, so the page
 * joins the line, shows its position falling as it is pushed over the event stream, buys on its turn with the
 * pass, and ends on the order number the ledger holds (read with SQL), never telling the buyer "busy".
 */
@AddConfig(key = "seckill.queue.enabled", value = "true")
@AddConfig(key = "seckill.queue.rate", value = "1")
@AddConfig(key = "seckill.queue.pass-seconds", value = "20")
@AddConfig(key = "seckill.queue.tick-millis", value = "50")
@AddConfig(key = "seckill.queue.events-poll-millis", value = "100")
class WaitingRoomPageTest extends BrowserTest {

    private static final int AHEAD = 5;


    @Test
    void thePageJoinsTheLineShowsItsPositionFallingBuysOnItsTurnAndEndsOnTheOrder() throws Exception {
        long activity = BuyerPage.launch(sale, Instant.now().minusSeconds(5), List.of(new NewActivity.Sku(9701, 20, 1, 1)));
        long buyer = activity * 1000 + 100;
        page.open(activity, buyer);
        page.solveCaptcha(null);
        for (int i = 1; i <= AHEAD; i++) {
            HttpResponse<String> joined = join(activity, activity * 1000 + i);
            assertThat(joined.body(), joined.statusCode(), is(200));
        }
        browser.byId("buy").click();

        // the positions the page shows while it waits, read as they change
        List<Long> shown = new ArrayList<>();
        String status = browser.await("the order", Duration.ofSeconds(40), d -> {
            String position = browser.text("line-position");
            if (browser.byId("line").isDisplayed() && position.matches("[0-9]+")) {
                long now = Long.parseLong(position);
                if (shown.isEmpty() || shown.getLast() != now) {
                    shown.add(now);
                }
            }
            String text = browser.text("status");
            assertThat("never 'busy'", text.toLowerCase().contains("busy"), is(false));
            return text.startsWith("Ordered") ? text : null;
        });
        assertThat(status, not(""));
        assertThat("positions shown: " + shown, shown.size(), greaterThanOrEqualTo(2));
        assertThat("positions shown: " + shown, shown.getFirst(), greaterThan(shown.getLast()));
        for (int i = 1; i < shown.size(); i++) {
            assertThat("only falling: " + shown, shown.get(i), org.hamcrest.Matchers.lessThan(shown.get(i - 1)));
        }
        String orderNo = browser.text("order-no");
        browser.screenshot("buyer-line-ordered");
        assertThat(sale.column("SELECT order_no FROM seckill_order WHERE activity_id = ? AND user_id = ?", activity, buyer),
                is(List.of(orderNo)));
        // the buyers ahead were called, not sold to: only the page's buyer holds an order
        assertThat(sale.count("SELECT COUNT(*) FROM seckill_order WHERE activity_id = ?", activity), is(1L));
    }

    @Test
    void theOperationsViewShowsTheLineShorteningAtTheRate() throws Exception {
        long activity = BuyerPage.launch(sale, Instant.now().minusSeconds(5), List.of(new NewActivity.Sku(9702, 20, 1, 1)));
        for (int i = 1; i <= 8; i++) {
            HttpResponse<String> joined = join(activity, activity * 1000 + i);
            assertThat(joined.body(), joined.statusCode(), is(200));
        }
        browser.open(sale.base.resolve("/ops?activity=" + activity).toString());
        browser.byId("token").sendKeys(SaleFixture.ADMIN_TOKEN);
        browser.byId("login").submit();
        String waiting = "tr[data-activity='" + activity + "'] td.waiting";
        List<Long> shown = new ArrayList<>();
        browser.await("the line shortening", Duration.ofSeconds(20), d -> {
            List<org.openqa.selenium.WebElement> cells = d.findElements(org.openqa.selenium.By.cssSelector(waiting));
            if (cells.isEmpty()) {
                return null;
            }
            long now = Long.parseLong(cells.getFirst().getText());
            // never more than joined, never fewer than Redis holds now (the view is at most a tick behind)
            long inRedis = redis.zcard("sk:{q:a" + activity + "}:line");
            assertThat(now, org.hamcrest.Matchers.lessThanOrEqualTo(8L));
            assertThat(now, greaterThanOrEqualTo(inRedis));
            if (shown.isEmpty() || shown.getLast() != now) {
                shown.add(now);
            }
            return shown.size() >= 3 ? shown : null;
        });
        browser.screenshot("ops-line");
        for (int i = 1; i < shown.size(); i++) {
            assertThat("the line only shortens: " + shown, shown.get(i), org.hamcrest.Matchers.lessThan(shown.get(i - 1)));
        }
    }

    private HttpResponse<String> join(long activity, long buyer) throws Exception {
        HttpRequest request = SaleFixture.asBuyer(HttpRequest.newBuilder(
                        sale.base.resolve("/api/v1/activities/" + activity + "/queue"))
                .header("Accept", "application/json").POST(HttpRequest.BodyPublishers.noBody()), buyer).build();
        return sale.http.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
