package seckill.system.browser;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.helidon.microprofile.testing.junit5.AddConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import seckill.client.NewActivity;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * The buyer's page waiting in the line when the operator switches the queue off (issue #33, hostile review
 * s44-qattack): purchases then need no pass, so the page must go on to buy directly, not reconnect to a stream
 * answered {@code 409 QUEUE_OFF} every second while others buy the stock. Before the fix the page stayed "in
 * line" for good. The switch is {@code seckill.queue.enabled} in {@code switches.yaml}, re-read while the service
 * runs; the line calls nobody (rate 0), so only the switch can end the wait.
 */
@AddConfig(key = "seckill.queue.rate", value = "0")
@AddConfig(key = "seckill.queue.tick-millis", value = "50")
@AddConfig(key = "seckill.queue.events-poll-millis", value = "100")
class WaitingRoomOffPageTest extends BrowserTest {

    private static final Path CONFIG_DIR;

    static {
        try {
            CONFIG_DIR = Files.createTempDirectory("seckill-queue-off-page");
            Files.writeString(CONFIG_DIR.resolve("switches.yaml"), "seckill.queue.enabled: true\n");
        } catch (Exception e) {
            throw new ExceptionInInitializerError(e);
        }
        // read by the switches file source when this class's container starts
        System.setProperty("seckill.config.dir", CONFIG_DIR.toString());
    }

    @AfterAll
    static void forgetConfigDir() {
        System.clearProperty("seckill.config.dir");
    }

    @Test
    void thePageWaitingInLineBuysDirectlyOnceTheQueueIsSwitchedOff() throws Exception {
        long activity = BuyerPage.launch(sale, Instant.now().minusSeconds(5), List.of(new NewActivity.Sku(9703, 20, 1, 1)));
        long buyer = activity * 1000 + 100;
        page.open(activity, buyer);
        page.solveCaptcha(null);
        browser.byId("buy").click();
        browser.await("the page in line", Duration.ofSeconds(20),
                d -> browser.byId("line").isDisplayed() && browser.text("line-position").matches("[0-9]+") ? true : null);
        assertThat("in the line, nobody called", redis.zscore("sk:{q:a" + activity + "}:line", Long.toString(buyer))
                != null, is(true));

        switches("seckill.queue.enabled: false\n");
        String status = browser.await("the order", Duration.ofSeconds(30), d -> {
            String text = browser.text("status");
            assertThat("never 'busy'", text.toLowerCase().contains("busy"), is(false));
            return text.startsWith("Ordered") ? text : null;
        });
        String orderNo = browser.text("order-no");
        browser.screenshot("buyer-line-switched-off");
        assertThat(status, orderNo.isEmpty(), is(false));
        assertThat(sale.column("SELECT order_no FROM seckill_order WHERE activity_id = ? AND user_id = ?", activity, buyer),
                is(List.of(orderNo)));
        assertThat("bought without a pass: still waiting in the line's record",
                redis.zscore("sk:{q:a" + activity + "}:line", Long.toString(buyer)) != null, is(true));
    }

    private static void switches(String yaml) throws Exception {
        Path file = CONFIG_DIR.resolve("switches.yaml");
        Path temp = CONFIG_DIR.resolve("switches.yaml.tmp");
        Files.writeString(temp, yaml);
        Files.move(temp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        // modification times can be coarse: make this rewrite look newer than the first
        Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 1000));
    }
}
