package seckill.system.edge;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import seckill.dev.api.DevServers;
import seckill.system.SaleFixture;
import seckill.system.SecondInstance;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

/**
 * The smaller attacks of #36 item 7, each made from outside over HTTP (or, for the log, by starting
 * another JVM) and judged by the service's answers, its metrics and its log: admin token guesses,
 * framing and script injection on the pages, a long X-Forwarded-For, the purchase-token oracle and
 * a password in the JDBC URL.
 */
@AddConfig(key = "seckill.admission.trust-forwarded-for", value = "true")
@AddConfig(key = "seckill.admission.token-required", value = "true")
@AddConfig(key = "seckill.admin.auth.max-failures-per-address", value = "5")
@AddConfig(key = "seckill.admin.auth.max-failures", value = "1000")
@AddConfig(key = "seckill.admin.auth.window-seconds", value = "600")
class SmallAttacksTest extends ServiceTest {

    private static final long SKU = 9701;
    private static final String GUESSER = "198.51.100.77";
    /** The service's own log, as its handlers see it, for what it says about the attacks. */
    private static final List<LogRecord> LOG = java.util.Collections.synchronizedList(new ArrayList<>());
    private static final Handler CAPTURE = new Handler() {
        @Override
        public void publish(LogRecord record) {
            LOG.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    static {
        Logger.getLogger("seckill").addHandler(CAPTURE);
    }

    @Inject
    DevServers devServers;

    @AfterAll
    static void stopCapturing() {
        Logger.getLogger("seckill").removeHandler(CAPTURE);
    }

    @Test
    void adminTokenGuessesAreThrottledPerAddressLoggedAndCounted() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        // the operator's right token, many times: success never counts towards a throttle
        for (int i = 0; i < 20; i++) {
            assertThat(admin(sale, SaleFixture.ADMIN_TOKEN, null).statusCode(), is(200));
        }
        List<Integer> statuses = new ArrayList<>();
        HttpResponse<String> last = null;
        for (int i = 0; i < 30; i++) {
            last = admin(sale, "guess-" + i + "-abcdefghijklmnopqrstuvwxyz", GUESSER);
            statuses.add(last.statusCode());
        }
        assertThat(statuses.toString(), statuses.subList(0, 5), everyItem(is(401)));
        assertThat(statuses.toString(), statuses.subList(5, 30), everyItem(is(429)));
        assertThat(last.body(), containsString("\"code\":\"THROTTLED\""));
        assertThat(last.body(), containsString("\"limit\":\"ADDRESS\""));
        long retryAfter = Long.parseLong(last.headers().firstValue("Retry-After").orElseThrow());
        assertThat(retryAfter, greaterThanOrEqualTo(1L));
        // the right token from the guessing address is refused too: a 429 must tell a guesser nothing
        assertThat(admin(sale, SaleFixture.ADMIN_TOKEN, GUESSER).statusCode(), is(429));
        // ... while the operator elsewhere is not locked out
        assertThat(admin(sale, SaleFixture.ADMIN_TOKEN, null).statusCode(), is(200));

        List<String> warnings = LOG.stream().filter(r -> r.getLevel() == Level.WARNING)
                .map(r -> r.getMessage() == null ? "" : r.getMessage())
                .filter(m -> m.startsWith("admin authentication failed")).toList();
        assertThat(warnings, hasSize(5));
        assertThat(warnings, everyItem(containsString(GUESSER)));
        assertThat(warnings.toString(), not(containsString("guess-")));

        String metrics = sale.get("/metrics", null).body();
        assertThat(metrics, containsString("# HELP seckill_admin_auth_failures_total "));
        assertThat(metric(metrics, "seckill_admin_auth_failures_total", "outcome=\"wrong\""), is(5L));
        assertThat(metric(metrics, "seckill_admin_auth_failures_total", "outcome=\"throttled\""), is(26L));
    }

    @Test
    void pagesForbidFramingInlineScriptAndSniffing() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        for (String path : List.of("/", "/ops", "/assets/buyer.js", "/assets/ops.js", "/assets/style.css")) {
            HttpResponse<String> page = sale.get(path, null);
            assertThat(path, page.statusCode(), is(200));
            String policy = page.headers().firstValue("Content-Security-Policy").orElse("");
            assertThat(path, policy, containsString("script-src 'self'"));
            assertThat(path, policy, containsString("frame-ancestors 'none'"));
            assertThat(path, policy, containsString("default-src 'none'"));
            assertThat(path, policy, not(containsString("unsafe-inline")));
            assertThat(path, page.headers().firstValue("X-Frame-Options").orElse(""), is("DENY"));
            assertThat(path, page.headers().firstValue("X-Content-Type-Options").orElse(""), is("nosniff"));
            assertThat(path, page.headers().firstValue("Referrer-Policy").orElse(""), is("no-referrer"));
        }
    }

    @Test
    void aLongForwardedForCostsTimeInProportionToItsLength() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createOpenActivity(SKU, 10, 1);
        // one hop of colons that ends in a non-address character: the old address pattern backtracked
        // over every colon for every colon. Four times the header must cost about four times as much.
        long small = fastestOfThree(sale, activity, ":".repeat(3 * 1024) + "g");
        long large = fastestOfThree(sale, activity, ":".repeat(12 * 1024) + "g");
        System.out.printf("SmallAttacksTest: a purchase with a 3 KB X-Forwarded-For %d ms, with 12 KB %d ms%n",
                small / 1_000_000, large / 1_000_000);
        assertThat("3 KB: " + small / 1_000_000 + " ms, 12 KB: " + large / 1_000_000 + " ms",
                large <= 6 * small + 50_000_000L, is(true));
    }

    @Test
    void aRefusedPurchaseTokenIsNotExplainedToTheClient() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createOpenActivity(SKU + 1, 10, 1);
        HttpResponse<String> refused = sale.send(SaleFixture.asBuyer(purchaseRequest(sale, activity, SKU + 1), 970_001)
                .header("X-Purchase-Token", "not-a-token"));
        assertThat(refused.body(), refused.statusCode(), is(403));
        assertThat(refused.body(), containsString("\"code\":\"TOKEN_INVALID\""));
        assertThat(refused.body(), not(containsString("MALFORMED")));
        assertThat(refused.body(), not(containsString("reason")));
        assertThat(metric(sale.get("/metrics", null).body(), "seckill_purchase_token_refusals_total",
                "reason=\"MALFORMED\""), greaterThanOrEqualTo(1L));
    }

    @Test
    void aPasswordInTheJdbcUrlStaysOutOfTheLog() throws Exception {
        Map<String, String> stores = SecondInstance.storesOf(config, devServers);
        String canary = "canary-not-for-logs-7731";
        String password = stores.getOrDefault("SECKILL_DB_PASSWORD", "");
        String url = stores.get("SECKILL_DB_URL");
        // a Connector/J key that only matters with certificate verification, so the canary starts nothing
        url += (url.contains("?") ? "&" : "?") + "trustCertificateKeyStorePassword=" + canary
                + (password.isEmpty() ? "" : "&password=" + password);
        stores.put("SECKILL_DB_URL", url);
        String log;
        try (SecondInstance instance = SecondInstance.start(stores, db, "seckill.ordering.enabled=false")) {
            log = instance.log();
        }
        assertThat(log, containsString("database at jdbc:"));
        assertThat(log, not(containsString(canary)));
        if (!password.isEmpty()) {
            assertThat(log, not(containsString(password)));
        }
    }

    private static HttpResponse<String> admin(SaleFixture sale, String token, String forwardedFor) {
        HttpRequest.Builder request = HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/sales"))
                .header("Authorization", "Bearer " + token).GET();
        if (forwardedFor != null) {
            request.header("X-Forwarded-For", forwardedFor);
        }
        return sale.send(request);
    }

    private static HttpRequest.Builder purchaseRequest(SaleFixture sale, long activity, long sku) {
        return HttpRequest.newBuilder(sale.base.resolve("/api/v1/activities/" + activity + "/purchases"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"skuId\":%d,\"quantity\":1,\"requestId\":\"x1\"}"
                        .formatted(sku)));
    }

    private static long fastestOfThree(SaleFixture sale, long activity, String forwardedFor) {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            long start = System.nanoTime();
            HttpResponse<String> answer = sale.send(SaleFixture.asBuyer(purchaseRequest(sale, activity, SKU), 970_100 + i)
                    .header("X-Forwarded-For", forwardedFor));
            best = Math.min(best, System.nanoTime() - start);
            assertThat(answer.body(), answer.statusCode(), is(403));
        }
        return best;
    }

    /** The value of the first sample of {@code name} whose labels contain {@code label}; 0 when there is none. */
    private static long metric(String metrics, String name, String label) {
        return metrics.lines().filter(line -> line.startsWith(name + "{") && line.contains(label))
                .mapToLong(line -> (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .findFirst().orElse(0L);
    }
}
