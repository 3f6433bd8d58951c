package seckill.system.sale;

import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import javax.imageio.ImageIO;

import io.helidon.microprofile.testing.junit5.AddConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.both;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;

/**
 * Admission over HTTP with real Redis: captcha-backed purchase tokens, the per-buyer and global
 * limits, blocklists, the early sold-out threshold and the hot switches file.
 */
@AddConfig(key = "seckill.admission.token-required", value = "true")
@AddConfig(key = "seckill.admission.token-keys", value = "k2=" + AdmissionTest.TOKEN_KEY + ",k1=older-admission-test-key-of-32-characters")
@AddConfig(key = "seckill.admission.buyer-rate", value = "1")
class AdmissionTest extends ServiceTest {

    static final String TOKEN_KEY = "admission-test-token-key-of-32-characters";
    private static final long SKU = 6001;
    private static final Path CONFIG_DIR;

    static {
        try {
            CONFIG_DIR = Files.createTempDirectory("seckill-switches");
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
        switches("");
    }

    @Test
    void aSolvedCaptchaBuysATokenThatAdmitsOnlyItsBuyerAndActivity() throws Exception {
        long activity = sale.createOpenActivity(SKU, 10, 1);
        long other = sale.createOpenActivity(SKU, 10, 1);
        long buyer = activity * 1000 + 1;

        HttpResponse<String> challenge = post("/api/v1/activities/" + activity + "/challenges", buyer, "");
        assertThat(challenge.statusCode(), is(201));
        String challengeId = SaleFixture.field(challenge.body(), "challengeId");
        String nonce = SaleFixture.proofOfWork(challenge.body());
        String image = SaleFixture.field(challenge.body(), "image");
        var png = ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(image.substring(image.indexOf(',') + 1))));
        assertThat(png, notNullValue());
        assertThat(png.getWidth(), greaterThan(50));
        String answer = answerOf(challengeId);

        // a wrong answer burns the challenge: the right one is refused afterwards too
        assertThat(token(activity, buyer, challengeId, "WRONG", nonce).statusCode(), is(403));
        assertThat(token(activity, buyer, challengeId, answer, nonce).body(), containsString("CHALLENGE_FAILED"));

        String token = solvedToken(activity, buyer);
        HttpResponse<String> refused = purchase(activity, buyer, null, "no-token");
        assertThat(refused.statusCode(), is(403));
        assertThat(refused.body(), containsString("TOKEN_INVALID"));
        assertThat(purchase(activity, buyer, token, "with-token").statusCode(), is(202));

        // the token stays good for its buyer until it expires: a throttled buyer needs no new captcha
        awaitStatus(activity, buyer, token, 200, "ALREADY_RESERVED");

        // the client learns only that the token is not valid; the reason is the operators' (#36)
        assertTokenRefused(purchase(activity, buyer + 1, token, "someone-else"), "OTHER_BUYER");
        assertTokenRefused(purchase(other, buyer, token, "other-sale"), "OTHER_ACTIVITY");
        String tampered = token.substring(0, token.length() - 2) + (token.endsWith("A") ? "BB" : "AA");
        assertThat(purchase(activity, buyer + 2, tampered, "tampered").body(), containsString("TOKEN_INVALID"));
        assertTokenRefused(purchase(activity, buyer, forged(activity, buyer, Instant.now().minusSeconds(1), "k2", TOKEN_KEY),
                "expired"), "EXPIRED");
        assertTokenRefused(purchase(activity, buyer + 3, forged(activity, buyer + 3, Instant.now().plusSeconds(60), "k2",
                "not-our-key"), "forged"), "BAD_SIGNATURE");
        // a token signed with the older, still configured key verifies: keys rotate without a cliff
        assertThat(purchase(activity, buyer + 4, forged(activity, buyer + 4, Instant.now().plusSeconds(60), "k1",
                "older-admission-test-key-of-32-characters"), "rotated").statusCode(), is(202));
        // exactly the two reservations this test was granted become orders, nothing else
        SaleFixture.await("two orders", Duration.ofSeconds(30),
                () -> sale.count("SELECT COUNT(*) FROM seckill_order WHERE activity_id IN (?, ?)", activity, other) == 2);
    }

    /**
     * Issue #36 item 2: one purchase token bought two SKUs. A token is used up by the purchase it was first
     * shown with: that purchase's retry (same SKU and requestId, e.g. after a lost answer) is still accepted,
     * another SKU is refused. Outcomes read from the ledger and from Redis.
     */
    @Test
    void oneTokenBuysOneSkuAndARetryOfThatPurchaseIsStillAccepted() {
        long activity = sale.admin().launch(java.util.UUID.randomUUID().toString(), new seckill.client.NewActivity(
                "two skus", Instant.now().minusSeconds(5).toString(), Instant.now().plusSeconds(600).toString(), 600L,
                List.of(new seckill.client.NewActivity.Sku(SKU, 10, 1, 1),
                        new seckill.client.NewActivity.Sku(SKU + 1, 10, 1, 1)))).activityId();
        long buyer = activity * 1000 + 5;
        String token = solvedToken(activity, buyer);
        HttpResponse<String> first = sale.purchaseWithToken(activity, buyer, SKU, token, "lost-answer");
        assertThat(first.body(), first.statusCode(), is(202));
        String reservation = SaleFixture.field(first.body(), "reservationId");

        // the same purchase again (its answer was lost): accepted, the same reservation
        String[] retried = new String[1];
        SaleFixture.await("the retry is answered", Duration.ofSeconds(5), () -> {
            HttpResponse<String> again = sale.purchaseWithToken(activity, buyer, SKU, token, "lost-answer");
            retried[0] = again.statusCode() + " " + again.body();
            return again.statusCode() != 429;
        });
        assertThat(retried[0], retried[0].startsWith("200 "), is(true));
        assertThat(retried[0], containsString(reservation));

        HttpResponse<String> otherSku = sale.purchaseWithToken(activity, buyer, SKU + 1, token, "second-sku");
        String secondReservation = otherSku.statusCode() == 202 ? SaleFixture.field(otherSku.body(), "reservationId") : null;
        SaleFixture.await("the first order", Duration.ofSeconds(30), () -> sale.ordersOf(reservation, buyer) == 1
                && (secondReservation == null || sale.ordersOf(secondReservation, buyer) == 1));
        assertThat("orders of the buyer in the ledger (second SKU answered " + otherSku.statusCode() + ")", sale.count(
                "SELECT COUNT(*) FROM seckill_order WHERE activity_id = ? AND user_id = ?", activity, buyer), is(1L));
        // refused as used, which the client is not told (#36 item 7) and operators see counted
        assertTokenRefused(otherSku, "USED");
        assertThat("units of the second SKU left", sale.available(activity, SKU + 1), is(10L));
    }

    /**
     * The proof of work's difficulty is a hot switch and rises with load: one bit more each time this
     * instance's challenge rate (last ten seconds) doubles past the threshold.
     */
    @Test
    void theProofOfWorkIsAHotSwitchAndRisesWithLoad() throws Exception {
        long activity = sale.createOpenActivity(SKU, 5, 1);
        switches("seckill.admission.proof-of-work-bits: 9\nseckill.admission.proof-of-work-load-threshold: 100000\n");
        awaitSwitch("seckill.admission.proof-of-work-bits", "9");
        awaitSwitch("seckill.admission.proof-of-work-load-threshold", "100000");
        assertThat(bitsAsked(activity, activity * 1000 + 1), is(9));
        // a threshold of 0.1 challenges per second: the last ten seconds' rate is far past it
        switches("seckill.admission.proof-of-work-bits: 9\nseckill.admission.proof-of-work-load-threshold: 1\n"
                + "seckill.admission.proof-of-work-max-bits: 11\n");
        awaitSwitch("seckill.admission.proof-of-work-load-threshold", "1");
        awaitSwitch("seckill.admission.proof-of-work-max-bits", "11");
        int risen = 0;
        for (int i = 2; i < 40; i++) {
            risen = Math.max(risen, bitsAsked(activity, activity * 1000 + i));
        }
        assertThat("raised by load, held at the cap", risen, is(11));
        // a token for the risen difficulty is issued for a nonce that proves it
        long buyer = activity * 1000 + 50;
        HttpResponse<String> challenge = post("/api/v1/activities/" + activity + "/challenges", buyer, "");
        String challengeId = SaleFixture.field(challenge.body(), "challengeId");
        HttpResponse<String> token = token(activity, buyer, challengeId, answerOf(challengeId),
                SaleFixture.proofOfWork(challenge.body()));
        assertThat(token.body(), token.statusCode(), is(201));
    }

    private int bitsAsked(long activity, long buyer) {
        HttpResponse<String> challenge = post("/api/v1/activities/" + activity + "/challenges", buyer, "");
        assertThat(challenge.body(), challenge.statusCode(), is(201));
        try (var reader = jakarta.json.Json.createReader(new java.io.StringReader(challenge.body()))) {
            return reader.readObject().getJsonObject("proofOfWork").getInt("leadingZeroBits");
        }
    }

    @Test
    void noTokenIsIssuedBeforeTheSaleStarts() throws Exception {
        long upcoming = sale.createActivity(Instant.now().plusSeconds(3600), Instant.now().plusSeconds(7200), SKU, 5, 1);
        long buyer = upcoming * 1000 + 1;
        String challenge = post("/api/v1/activities/" + upcoming + "/challenges", buyer, "").body();
        String challengeId = SaleFixture.field(challenge, "challengeId");
        HttpResponse<String> early = token(upcoming, buyer, challengeId, answerOf(challengeId),
                SaleFixture.proofOfWork(challenge));
        assertThat(early.statusCode(), is(409));
        assertThat(early.body(), containsString("NOT_STARTED"));
    }

    @Test
    void aBuyerOverTheRateGets429WithHonestHeaders() throws Exception {
        long activity = sale.createOpenActivity(SKU, 10, 1);
        long buyer = activity * 1000 + 7;
        String token = solvedToken(activity, buyer);
        HttpResponse<String> first = purchase(activity, buyer, token, "first");
        assertThat(first.body(), first.statusCode(), is(202));
        HttpResponse<String> throttled = purchase(activity, buyer, token, "second");
        assertThat(throttled.statusCode(), is(429));
        assertThat(throttled.body(), containsString("\"code\":\"THROTTLED\""));
        assertThat(throttled.headers().firstValue("Retry-After").orElseThrow(), is("1"));
        assertThat(throttled.headers().firstValue("X-RateLimit-Limit").orElseThrow(), is("1"));
        assertThat(throttled.headers().firstValue("X-RateLimit-Remaining").orElseThrow(), is("0"));
        assertThat(throttled.headers().firstValue("X-RateLimit-Reset").orElseThrow(), is("1"));
        // honest: once Retry-After has passed, the same buyer and token are served again
        awaitStatus(activity, buyer, token, 200, "ALREADY_RESERVED");
    }

    @Test
    void switchesFileFlipsHaltBlocklistGlobalRateAndThreshold() throws Exception {
        long activity = sale.createOpenActivity(SKU, 5, 1);
        long buyer = activity * 1000 + 1;
        String token = solvedToken(activity, buyer);

        switches("seckill.admission.halt: true\n");
        awaitStatus(activity, buyer, token, 503, "HALTED");
        HttpResponse<String> switchesView = sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/switches"))
                .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN).GET());
        assertThat(switchesView.body(), containsString("\"seckill.admission.halt\":{\"value\":\"true\",\"source\":\"switches:"));
        String freshToken = solvedToken(activity, buyer + 20);
        switches("seckill.admission.halt: false\n");
        awaitStatus(activity, buyer + 20, freshToken, 202, "");

        switches("seckill.admission.blocked-users: 42, " + (buyer + 1) + "\n");
        String blockedToken = solvedToken(activity, buyer + 1);
        awaitStatus(activity, buyer + 1, blockedToken, 403, "BLOCKED");

        // the global admission rate: tokens first, then six different buyers as fast as possible
        long busy = sale.createOpenActivity(SKU, 100, 1);
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            tokens.add(solvedToken(busy, busy * 1000 + i));
        }
        switches("seckill.admission.global-rate: 2\n");
        awaitSwitch("seckill.admission.global-rate", "2");
        List<HttpResponse<String>> answers = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            answers.add(purchase(busy, busy * 1000 + i, tokens.get(i), "g" + i));
        }
        // two per second: the six fall into one second (2 admitted) or straddle two (up to 4)
        long admitted = answers.stream().filter(r -> r.statusCode() == 202).count();
        long queued = answers.stream().filter(r -> r.statusCode() == 429
                && r.body().contains("\"limit\":\"GLOBAL\"") && r.body().contains("in the queue")).count();
        assertThat(admitted, is(both(greaterThanOrEqualTo(2L)).and(lessThanOrEqualTo(4L))));
        assertThat(queued, is(6 - admitted));

        // with 3 units left or fewer the SKU answers sold out, although units remain
        switches("seckill.admission.sold-out-threshold: 3\n");
        awaitSwitch("seckill.admission.sold-out-threshold", "3");
        assertThat(purchase(activity, buyer + 10, solvedToken(activity, buyer + 10), "t10").statusCode(), is(202));
        HttpResponse<String> early = purchase(activity, buyer + 11, solvedToken(activity, buyer + 11), "t11");
        assertThat(early.body(), early.statusCode(), is(410));
        String view = sale.get("/api/v1/activities/" + activity, null).body();
        assertThat(view, containsString("\"soldOut\":true"));
        assertThat(view, not(containsString("\"remaining\":0")));
    }

    /** The promise: a switch edit takes effect within 2 s. */
    /** Until admission applies the value (the switches view shows what is in force, not only what is written). */
    private void awaitSwitch(String key, String value) {
        SaleFixture.await(key + " = " + value, Duration.ofSeconds(5), () -> sale.send(HttpRequest.newBuilder(
                sale.base.resolve("/api/v1/admin/switches")).header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN)
                .GET()).body().contains("\"" + key + "\":{\"value\":\"" + value + "\""));
    }

    private void awaitStatus(long activity, long buyer, String token, int status, String code) {
        String[] last = new String[1];
        try {
            SaleFixture.await("status " + status, Duration.ofSeconds(2), () -> {
                HttpResponse<String> response = purchase(activity, buyer, token, "s" + System.nanoTime());
                last[0] = response.statusCode() + " " + response.body();
                return response.statusCode() == status && response.body().contains(code);
            });
        } catch (AssertionError e) {
            throw new AssertionError("expected " + status + " " + code + ", last answer " + last[0], e);
        }
    }

    private void switches(String yaml) throws Exception {
        Path file = CONFIG_DIR.resolve("switches.yaml");
        Path temp = CONFIG_DIR.resolve("switches.yaml.tmp");
        Files.writeString(temp, yaml);
        Files.move(temp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        // modification times can be coarse: make every rewrite look newer than the last
        Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis()
                + (long) (Math.random() * 1000)));
    }

    private String solvedToken(long activity, long buyer) {
        return sale.solvedToken(redis, activity, buyer);
    }

    private String answerOf(String challengeId) {
        return SaleFixture.captchaAnswer(redis, challengeId);
    }

    private HttpResponse<String> token(long activity, long buyer, String challengeId, String answer, String nonce) {
        return post("/api/v1/activities/" + activity + "/tokens", buyer,
                "{\"challengeId\":\"" + challengeId + "\",\"answer\":\"" + answer + "\",\"nonce\":\"" + nonce + "\"}");
    }

    private HttpResponse<String> post(String path, long buyer, String body) {
        return sale.send(SaleFixture.asBuyer(HttpRequest.newBuilder(sale.base.resolve(path)), buyer)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** A 403 TOKEN_INVALID that does not name its reason, counted under that reason for operators. */
    private void assertTokenRefused(HttpResponse<String> refused, String reason) {
        assertThat(refused.body(), refused.statusCode(), is(403));
        assertThat(refused.body(), containsString("TOKEN_INVALID"));
        assertThat(refused.body(), not(containsString(reason)));
        boolean counted = sale.get("/metrics", null).body().lines().anyMatch(line -> line.startsWith(
                "seckill_purchase_token_refusals_total{") && line.contains("reason=\"" + reason + "\""));
        assertThat("seckill_purchase_token_refusals_total counts " + reason, counted, is(true));
    }

    private HttpResponse<String> purchase(long activity, long buyer, String token, String requestId) {
        return sale.purchaseWithToken(activity, buyer, SKU, token, requestId);
    }

    private static String forged(long activity, long buyer, Instant expires, String keyId, String secret) throws Exception {
        byte[] body = ("v1|" + keyId + "|" + activity + "|" + buyer + "|" + expires.getEpochSecond())
                .getBytes(StandardCharsets.UTF_8);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        return b64.encodeToString(body) + "." + b64.encodeToString(mac.doFinal(body));
    }
}
