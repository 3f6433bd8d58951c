package seckill.system.browser;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import seckill.admission.api.Admission;
import seckill.client.NewActivity;
import seckill.system.SaleFixture;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * The buyer's page and the operations view in a real browser (Debian's Chromium, headless) against
 * the running service, purchase tokens on and the real captcha (the test reads its answer where a
 * human would read the picture). Outcomes are read from the ledger, not from the page alone.
 */
@AddConfig(key = "seckill.admission.token-keys", value = "k1=pages-test-key-of-a-decent-length")
@AddConfig(key = "seckill.admission.token-required", value = "true")
// one attempt per buyer per SKU per 4 s: a second click inside that is queued (429) and retried by the page
@AddConfig(key = "seckill.admission.buyer-rate", value = "1")
@AddConfig(key = "seckill.admission.buyer-window-millis", value = "4000")
// SKU pictures: files the test writes into this folder (relative to system-tests/, where Maven runs)
@AddConfig(key = "seckill.pictures.dir", value = PagesTest.PICTURES)
class PagesTest extends BrowserTest {

    static final String PICTURES = "target/pages-test-pictures";

    @Inject
    Admission admission;


    @Test
    void aBuyerWaitsForTheCountdownSolvesTheCaptchaAndEndsWithAnOrderToPay() throws Exception {
        long activity = BuyerPage.launch(sale, Instant.now().plusSeconds(9), List.of(new NewActivity.Sku(9501, 5, 1, 1)));
        long buyer = activity * 1000 + 1;
        page.open(activity, buyer);
        browser.await("the countdown", Duration.ofSeconds(10), d -> browser.text("countdown").startsWith("Starts in 00:00:"));
        assertThat(browser.byId("buy").isEnabled(), is(false));
        assertThat(browser.text("skus"), containsString("about 5 of 5 left"));
        browser.screenshot("buyer-countdown");

        page.solveCaptcha(null);
        browser.byId("buy").click();
        browser.await("the order", Duration.ofSeconds(30), d -> browser.text("status").startsWith("Ordered"));
        String orderNo = browser.text("order-no");
        assertThat(browser.text("pay-by"), not(""));
        browser.screenshot("buyer-ordered");

        assertThat(sale.column("SELECT order_no FROM seckill_order WHERE activity_id = ? AND user_id = ?", activity, buyer),
                is(List.of(orderNo)));
    }

    /**
     * Each SKU shows its name, price and picture (issue #33); a name that looks like markup is shown
     * as the text it is, never run or parsed; a SKU launched without them shows "SKU id" as before.
     */
    @Test
    void eachSkuShowsItsNameAndPriceAndPictureAndANameIsOnlyEverText() throws Exception {
        java.nio.file.Path folder = java.nio.file.Path.of(PICTURES);
        java.nio.file.Files.createDirectories(folder);
        java.awt.image.BufferedImage image = new java.awt.image.BufferedImage(32, 32,
                java.awt.image.BufferedImage.TYPE_INT_RGB);
        image.setRGB(3, 3, 0xE4393C);
        javax.imageio.ImageIO.write(image, "png", folder.resolve("phone-9551.png").toFile());
        String hostile = "<script>window.pwned=1</script><img src=x onerror=\"window.pwned=2\"><b>Phone</b>";
        long activity = BuyerPage.launch(sale, Instant.now().minusSeconds(5), List.of(
                new NewActivity.Sku(9551, 5, 1, 1, hostile, new NewActivity.Price("12.34", "EUR"), "phone-9551.png"),
                new NewActivity.Sku(9552, 5, 1, 1)));
        page.open(activity, activity * 1000 + 7);
        browser.await("the SKUs", Duration.ofSeconds(10), d -> browser.text("skus").contains("SKU 9552"));

        String skus = browser.text("skus");
        assertThat("the name as written, tags and all", skus, containsString(hostile));
        assertThat("the price with its currency", skus, containsString("12.34"));
        assertThat(skus, containsString("€"));
        assertThat("nothing in the name became an element",
                browser.driver.findElements(By.cssSelector("#skus b, #skus script, #skus img:not(.sku-picture)")).size(),
                is(0));
        assertThat("nothing in the name ran", browser.driver.executeScript("return window.pwned === undefined"),
                is(true));
        // the picture, served by the service and loaded by the browser under the page's policy
        browser.await("the picture", Duration.ofSeconds(10), d -> Boolean.TRUE.equals(browser.driver.executeScript(
                "const i = document.querySelector('#skus img.sku-picture');"
                        + " return i !== null && i.complete && i.naturalWidth === 32;")));
        assertThat(browser.driver.findElement(By.cssSelector("#skus img.sku-picture")).getDomAttribute("src"),
                is("/pictures/phone-9551.png"));
        assertThat("a SKU without a price shows none", browser.driver.findElements(By.cssSelector(
                "#skus label[data-sku='9552'] .sku-price")).size(), is(0));
        browser.screenshot("buyer-skus");
    }

    @Test
    void aSecondClickTooSoonIsQueuedAndRetriedByThePageWhichShowsTheOneOrder() throws Exception {
        long activity = BuyerPage.launch(sale, Instant.now().minusSeconds(5), List.of(new NewActivity.Sku(9511, 5, 1, 1)));
        long buyer = activity * 1000 + 2;
        // the buyer's other device holds a token already (a buyer has one live challenge at a time)
        String token = sale.solvedToken(redis, activity, buyer);
        page.open(activity, buyer);
        page.solveCaptcha(null);
        // the same buyer has just bought the SKU elsewhere: the page's attempt falls in the same window
        HttpResponse<String> first = sale.purchaseWithToken(activity, buyer, 9511, token, "elsewhere");
        assertThat(first.body(), first.statusCode(), is(202));
        browser.byId("buy").click();
        browser.await("the queue message", Duration.ofSeconds(10),
                d -> browser.text("status").startsWith("You are in the queue — retrying in"));
        browser.screenshot("buyer-queued");
        // the page's own retry, once the window ends, is told of the reservation made elsewhere and follows it
        browser.await("the order", Duration.ofSeconds(30), d -> browser.text("status").startsWith("Ordered"));

        assertThat("one order for the buyer, whichever click made it",
                sale.column("SELECT request_id FROM seckill_order WHERE activity_id = ? AND user_id = ?", activity, buyer),
                is(List.of(activity + "/9511/" + buyer + "/elsewhere")));
    }

    @Test
    void soldOutIsShownAndTheButtonStaysOff() throws Exception {
        long activity = BuyerPage.launch(sale, Instant.now().minusSeconds(5), List.of(new NewActivity.Sku(9521, 1, 1, 1)));
        long buyer = activity * 1000 + 3;
        page.open(activity, buyer);
        page.solveCaptcha(null);
        long rival = activity * 1000 + 4;
        HttpResponse<String> last = sale.purchaseWithToken(activity, rival, 9521, sale.solvedToken(redis, activity, rival), "r");
        assertThat(last.body(), last.statusCode(), is(202));
        browser.byId("buy").click();
        browser.await("sold out", Duration.ofSeconds(10), d -> browser.text("status").startsWith("Sold out"));
        assertThat(browser.byId("buy").isEnabled(), is(false));
        SaleFixture.await("the rival's order", Duration.ofSeconds(10), () -> sale.orders(activity) == 1);
        assertThat(sale.column("SELECT user_id FROM seckill_order WHERE activity_id = ?", activity),
                is(List.of(Long.toString(rival))));
    }

    @Test
    void whileSalesArePausedThePageSaysSoAndBuysOnceTheyResume() throws Exception {
        long activity = BuyerPage.launch(sale, Instant.now().minusSeconds(5), List.of(new NewActivity.Sku(9541, 5, 1, 1)));
        long buyer = activity * 1000 + 5;
        page.open(activity, buyer);
        page.solveCaptcha(null);
        admission.halt(seckill.admission.api.HaltReason.OPERATOR);
        try {
            browser.byId("buy").click();
            browser.await("the pause message", Duration.ofSeconds(10),
                    d -> browser.text("status").startsWith("The sale is paused for a moment — retrying in"));
            assertThat(sale.orders(activity), is(0L));
        } finally {
            admission.resume();
        }
        browser.await("the retry's order", Duration.ofSeconds(30), d -> browser.text("status").startsWith("Ordered"));
        assertThat(sale.column("SELECT user_id FROM seckill_order WHERE activity_id = ?", activity),
                is(List.of(Long.toString(buyer))));
    }

    @Test
    void theOperationsViewShowsStockFallingAndHaltsAndResumesSales() throws Exception {
        long activity = BuyerPage.launch(sale, Instant.now().minusSeconds(5), List.of(new NewActivity.Sku(9531, 10, 1, 2)));
        browser.open(sale.base.resolve("/ops?activity=" + activity).toString());
        browser.byId("token").sendKeys(SaleFixture.ADMIN_TOKEN);
        browser.byId("login").submit();
        String row = "tr[data-sku='" + activity + ":9531'] td.left";
        browser.await("the stock row", Duration.ofSeconds(10),
                d -> d.findElements(By.cssSelector(row)).stream().anyMatch(e -> e.getText().equals("10")));
        for (int i = 1; i <= 4; i++) {
            long buyer = activity * 1000 + 10 + i;
            HttpResponse<String> bought = sale.purchaseWithToken(activity, buyer, 9531,
                    sale.solvedToken(redis, activity, buyer), "ops" + i);
            assertThat(bought.body(), bought.statusCode(), is(202));
        }
        browser.await("the stock falling to 6", Duration.ofSeconds(10),
                d -> d.findElement(By.cssSelector(row)).getText().equals("6"));
        SaleFixture.await("the four orders", Duration.ofSeconds(10), () -> sale.orders(activity) == 4);
        browser.screenshot("ops-view");

        long late = activity * 1000 + 20;
        String lateToken = sale.solvedToken(redis, activity, late);  // no challenges are issued while halted
        browser.byId("halt").click();
        try {
            browser.await("halted", Duration.ofSeconds(10), d -> browser.text("sales-state").equals("HALTED"));
            HttpResponse<String> refused = sale.purchaseWithToken(activity, late, 9531, lateToken, "late");
            assertThat(refused.body(), refused.statusCode(), is(503));
            assertThat(refused.body(), containsString("HALTED"));
            browser.byId("resume").click();
            browser.await("selling again", Duration.ofSeconds(20), d -> browser.text("sales-state").equals("OPEN"));
        } finally {
            admission.resume();  // the other tests of this class sell
        }
        HttpResponse<String> again = sale.purchaseWithToken(activity, late, 9531, lateToken, "late");
        assertThat(again.body(), again.statusCode(), is(202));
        SaleFixture.await("five orders", Duration.ofSeconds(10), () -> sale.orders(activity) == 5);
    }
    @Test
    void theOperationsViewTracesAReservationByIdAndByBuyer() throws Exception {
        long activity = BuyerPage.launch(sale, Instant.now().minusSeconds(5), List.of(new NewActivity.Sku(9541, 5, 1, 1)));
        long buyer = activity * 1000 + 1;
        HttpResponse<String> bought = sale.purchaseWithToken(activity, buyer, 9541,
                sale.solvedToken(redis, activity, buyer), "trace-1");
        assertThat(bought.body(), bought.statusCode(), is(202));
        String id = SaleFixture.field(bought.body(), "reservationId");
        SaleFixture.await("the order", Duration.ofSeconds(30), () -> sale.ordersOf(id, buyer) == 1);
        String orderNo = sale.column("SELECT order_no FROM seckill_order WHERE reservation_id = ?", id).getFirst();

        browser.open(sale.base.resolve("/ops?activity=" + activity).toString());
        browser.byId("token").sendKeys(SaleFixture.ADMIN_TOKEN);
        browser.byId("login").submit();
        browser.byId("trace-id").sendKeys(id);
        browser.byId("trace-go").click();
        String verdict = "div.trace[data-reservation='" + id + "'] .trace-verdict";
        browser.await("the verdict", Duration.ofSeconds(10),
                d -> d.findElements(By.cssSelector(verdict)).stream().anyMatch(e -> e.getText().equals("ORDERED")));
        assertThat(browser.text("trace"), containsString(orderNo + " PENDING"));
        assertThat(browser.text("trace"), containsString("ACKNOWLEDGED"));
        browser.screenshot("ops-trace");

        // by activity and buyer: the same reservation
        browser.byId("trace-id").clear();
        browser.byId("trace-activity").sendKeys(Long.toString(activity));
        browser.byId("trace-buyer").sendKeys(Long.toString(buyer));
        browser.byId("trace-go").click();
        browser.await("the buyer's reservation", Duration.ofSeconds(10),
                d -> d.findElements(By.cssSelector(verdict)).stream().anyMatch(e -> e.getText().equals("ORDERED")));

        // an id no layer knows: the problem's detail, no trace
        browser.byId("trace-activity").clear();
        browser.byId("trace-buyer").clear();
        browser.byId("trace-id").sendKeys(activity + "-9541-0-zzzzzz");
        browser.byId("trace-go").click();
        browser.await("not found", Duration.ofSeconds(10), d -> browser.text("trace-message").contains("No layer knows"));
        assertThat(browser.text("trace"), is(""));
    }
}
