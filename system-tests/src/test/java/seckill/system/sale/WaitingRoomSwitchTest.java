package seckill.system.sale;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.helidon.microprofile.testing.junit5.AddConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/**
 * The waiting room's on/off hot switch flipped while buyers follow the line (hostile review, s44-qattack): a
 * stream opened while the queue was on must not go on telling its buyer to wait once the operator switched the
 * queue off (purchases then need no pass, and the stock goes to those who buy directly). The switch is set in
 * {@code switches.yaml}, re-read while the service runs.
 */
@AddConfig(key = "seckill.queue.rate", value = "0")
@AddConfig(key = "seckill.queue.tick-millis", value = "50")
@AddConfig(key = "seckill.queue.events-poll-millis", value = "100")
class WaitingRoomSwitchTest extends ServiceTest {

    private static final long SKU = 3401;
    private static final AtomicLong BUYERS = new AtomicLong(System.currentTimeMillis() % 100_000_000 * 1000 + 500);
    private static final Path CONFIG_DIR;

    static {
        try {
            CONFIG_DIR = Files.createTempDirectory("seckill-queue-switches");
            Files.writeString(CONFIG_DIR.resolve("switches.yaml"), "seckill.queue.enabled: true\n");
        } catch (Exception e) {
            throw new ExceptionInInitializerError(e);
        }
        // read by the switches file source when this class's container starts
        System.setProperty("seckill.config.dir", CONFIG_DIR.toString());
    }

    private SaleFixture sale;

    @AfterAll
    static void forgetConfigDir() {
        System.clearProperty("seckill.config.dir");
    }

    @BeforeEach
    void fixture() throws Exception {
        sale = new SaleFixture(target.getUri(), db);
        switches("seckill.queue.enabled: true\n");
    }

    @Test
    void aStreamEndsWhenTheQueueIsSwitchedOffAndTheBuyerIsToldToBuyDirectly() throws Exception {
        long activity = sale.createOpenActivity(SKU, 10, 1);
        long buyer = BUYERS.incrementAndGet();
        SaleFixture.await("the queue is on", java.time.Duration.ofSeconds(5), () -> join(activity, buyer).statusCode() == 200);
        CompletableFuture<HttpResponse<String>> stream = sale.http.sendAsync(SaleFixture.asBuyer(HttpRequest.newBuilder(
                        sale.base.resolve("/api/v1/activities/" + activity + "/queue/events"))
                .header("Accept", "text/event-stream").GET(), buyer).build(), HttpResponse.BodyHandlers.ofString());
        Thread.sleep(1000);
        assertThat("the buyer waits (rate 0)", stream.isDone(), is(false));

        switches("seckill.queue.enabled: false\n");
        SaleFixture.await("the queue is off", java.time.Duration.ofSeconds(5),
                () -> join(activity, BUYERS.incrementAndGet()).statusCode() == 409);
        // the stream ends within a few polls, and asking again says the queue is off
        HttpResponse<String> ended = stream.get(5, TimeUnit.SECONDS);
        assertThat(ended.body(), containsString("WAITING"));
        HttpResponse<String> again = sale.send(SaleFixture.asBuyer(HttpRequest.newBuilder(
                sale.base.resolve("/api/v1/activities/" + activity + "/queue/events")).GET(), buyer));
        assertThat(again.statusCode(), is(409));
        assertThat(SaleFixture.field(again.body(), "code"), is("QUEUE_OFF"));
    }

    private HttpResponse<String> join(long activity, long buyer) {
        return sale.send(SaleFixture.asBuyer(HttpRequest.newBuilder(
                sale.base.resolve("/api/v1/activities/" + activity + "/queue")).POST(HttpRequest.BodyPublishers.noBody()),
                buyer));
    }

    private static void switches(String yaml) throws Exception {
        Path file = CONFIG_DIR.resolve("switches.yaml");
        Path temp = CONFIG_DIR.resolve("switches.yaml.tmp");
        Files.writeString(temp, yaml);
        Files.move(temp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        // modification times can be coarse: make every rewrite look newer than the last
        Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis()
                + (long) (Math.random() * 1000)));
    }
}
