package seckill.system.edge;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;
import seckill.system.TestIdentity;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/**
 * Issue #36, item 1, attacked from outside: a buyer is whoever the verified bearer token says, never
 * what a client writes in {@code X-User-Id}. Each attack is a real HTTP request to the running
 * service; what it achieved is read from the ledger (orders) and the reservations listing.
 */
class IdentityTest extends ServiceTest {

    private static final long SKU = 3601;

    private SaleFixture sale;

    @BeforeEach
    void fixture() {
        sale = new SaleFixture(target.getUri(), db);
    }

    @Test
    void aClientSentUserIdHeaderNeitherReadsNorBuysForThatBuyer() {
        long activity = sale.createOpenActivity(SKU, 10, 1);
        long victim = activity * 1000 + 42;
        long other = activity * 1000 + 43;
        HttpResponse<String> own = sale.send(SaleFixture.asBuyer(purchaseRequest(activity, "victim"), victim));
        assertThat(own.body(), own.statusCode(), is(202));

        HttpResponse<String> read = sale.send(HttpRequest.newBuilder(sale.base.resolve(
                "/api/v1/activities/" + activity + "/reservations")).header("X-User-Id", Long.toString(victim)).GET());
        assertUnauthenticated(read);
        assertThat(read.body(), !read.body().contains("reservationId"), is(true));

        HttpResponse<String> bought = sale.send(purchaseRequest(activity, "forged").header("X-User-Id", Long.toString(other)));
        assertUnauthenticated(bought);
        SaleFixture.await("the victim's own order", java.time.Duration.ofSeconds(20), () -> sale.orders(activity) == 1);
        assertThat("no order in the other buyer's name", ordersOf(activity, other), is(0L));
    }

    @Test
    void forgedExpiredUnsignedAndEditedTokensAreRefused() {
        long activity = sale.createOpenActivity(SKU + 1, 10, 1);
        long attacker = activity * 1000 + 1;
        long victim = activity * 1000 + 2;
        String mine = TestIdentity.token(attacker);

        Map<String, String> forged = new LinkedHashMap<>();
        forged.put("signed with another key", TestIdentity.sign(TestIdentity.KEY_ID,
                "another-key-that-is-at-least-32-characters-long", Long.toString(victim), TestIdentity.ISSUER,
                Instant.now().plusSeconds(600)));
        forged.put("expired", TestIdentity.sign(TestIdentity.KEY_ID, TestIdentity.KEY, Long.toString(victim),
                TestIdentity.ISSUER, Instant.now().minusSeconds(600)));
        forged.put("without exp", TestIdentity.sign(TestIdentity.KEY_ID, TestIdentity.KEY, Long.toString(victim),
                TestIdentity.ISSUER, null));
        forged.put("another issuer", TestIdentity.sign(TestIdentity.KEY_ID, TestIdentity.KEY, Long.toString(victim),
                "https://evil.example", Instant.now().plusSeconds(600)));
        forged.put("alg none", unsigned("{\"alg\":\"none\",\"typ\":\"JWT\"}", victim));
        forged.put("sub edited without re-signing", withSubject(mine, victim));
        forged.put("not a token", "42");

        int n = 0;
        for (Map.Entry<String, String> attack : forged.entrySet()) {
            // the forged token, and the victim's id in the old header for good measure
            HttpResponse<String> answer = sale.send(purchaseRequest(activity, "forged-" + n++)
                    .header("Authorization", "Bearer " + attack.getValue()).header("X-User-Id", Long.toString(victim)));
            assertThat(attack.getKey() + ": " + answer.body(), answer.statusCode(), is(401));
            assertUnauthenticated(answer);
        }
        HttpResponse<String> honest = sale.send(purchaseRequest(activity, "honest").header("Authorization", "Bearer " + mine));
        assertThat("the attacker's own, valid token buys as the attacker: " + honest.body(), honest.statusCode(), is(202));
        SaleFixture.await("the attacker's own order", java.time.Duration.ofSeconds(20), () -> sale.orders(activity) == 1);
        assertThat(ordersOf(activity, attacker), is(1L));
        assertThat("nothing in the victim's name", ordersOf(activity, victim), is(0L));
    }

    private HttpRequest.Builder purchaseRequest(long activity, String requestId) {
        return HttpRequest.newBuilder(sale.base.resolve("/api/v1/activities/" + activity + "/purchases"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"skuId\":" + sale.count("SELECT MIN(sku_id) FROM seckill_stock WHERE activity_id = ?", activity)
                                + ",\"quantity\":1,\"requestId\":\"" + requestId + "\"}"));
    }

    private long ordersOf(long activity, long buyer) {
        return sale.count("SELECT COUNT(*) FROM seckill_order WHERE activity_id = ? AND user_id = ?", activity, buyer);
    }

    static void assertUnauthenticated(HttpResponse<String> answer) {
        assertThat(answer.body(), answer.statusCode(), is(401));
        assertThat(answer.headers().firstValue("Content-Type").orElse(""), startsWith("application/problem+json"));
        assertThat(answer.body(), containsString("\"code\":\"UNAUTHENTICATED\""));
        assertThat(answer.headers().firstValue("WWW-Authenticate").orElse(""), startsWith("Bearer realm=\"seckill\""));
    }

    private static String unsigned(String header, long subject) {
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        String claims = "{\"sub\":\"" + subject + "\",\"iss\":\"" + TestIdentity.ISSUER + "\",\"exp\":"
                + Instant.now().plusSeconds(600).getEpochSecond() + "}";
        return b64.encodeToString(header.getBytes()) + "." + b64.encodeToString(claims.getBytes()) + ".";
    }

    /** The same header and signature, the claims re-encoded with another subject. */
    private static String withSubject(String token, long subject) {
        String[] parts = token.split("\\.");
        String claims = new String(Base64.getUrlDecoder().decode(parts[1]));
        String edited = claims.replaceAll("\"sub\":\"[0-9]+\"", "\"sub\":\"" + subject + "\"");
        return parts[0] + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(edited.getBytes()) + "." + parts[2];
    }
}
