package seckill.system.sale;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Protocol;
import seckill.admission.api.Admission;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/**
 * Challenges are not free to mint: throttled per buyer, refused while halted, to blocked buyers and
 * after the sale, one answer per challenge, and 503 (not 500) while Redis does not answer.
 */
@AddConfig(key = "seckill.admission.token-keys", value = "k1=challenges-test-key-of-some-length")
@AddConfig(key = "seckill.admission.challenges-per-buyer-per-minute", value = "5")
@AddConfig(key = "seckill.admission.blocked-users", value = "666")
class ChallengesTest extends ServiceTest {

    @Inject
    Admission admission;

    @Test
    void aBurstOfChallengesFromOneBuyerIsThrottledAfterTheLimit() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createOpenActivity(9301, 5, 1);
        long buyer = activity * 1000 + 1;
        for (int i = 0; i < 5; i++) {
            assertThat(challenge(sale, activity, buyer).statusCode(), is(201));
        }
        HttpResponse<String> sixth = challenge(sale, activity, buyer);
        assertThat(sixth.body(), sixth.statusCode(), is(429));
        assertThat(sixth.body(), containsString("THROTTLED"));
        assertThat(sixth.headers().firstValue("Retry-After").isPresent(), is(true));
        assertThat(sixth.headers().firstValue("X-RateLimit-Limit").orElse(""), is("5"));
        // another buyer is not held back by the first one's burst
        assertThat(challenge(sale, activity, buyer + 1).statusCode(), is(201));
    }

    /**
     * Issue #36 item 6: behind a proxy without trust-forwarded-for every buyer arrives from the proxy's address.
     * The buyer's own limit comes first; the address' is a backstop sized for a proxy, not for one person.
     */
    @Test
    void twoHundredBuyersBehindOneAddressEachGetAChallengeWhileOneBuyerIsLimited() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createOpenActivity(9305, 5, 1);
        int issued = 0;
        String firstRefusal = null;
        for (int i = 0; i < 200; i++) {
            HttpResponse<String> answer = challenge(sale, activity, activity * 1000 + 100 + i);
            if (answer.statusCode() == 201) {
                issued++;
            } else if (firstRefusal == null) {
                firstRefusal = "buyer #" + (i + 1) + ": " + answer.statusCode() + " " + answer.body();
            }
        }
        assertThat("200 buyers from one address, first refusal: " + firstRefusal, issued, is(200));

        long eager = activity * 1000 + 99;
        int eagerIssued = 0;
        HttpResponse<String> last = null;
        for (int i = 0; i < 50; i++) {
            last = challenge(sale, activity, eager);
            eagerIssued += last.statusCode() == 201 ? 1 : 0;
        }
        assertThat("one buyer asking 50 times gets the per-buyer limit", eagerIssued, is(5));
        assertThat(last.body(), last.statusCode(), is(429));
        assertThat(last.body(), containsString("\"limit\":\"BUYER\""));
    }

    @Test
    void refusedBeforeAnythingIsDrawnWhenHaltedBlockedOrOver() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createActivity(Instant.now().minusSeconds(5), Instant.now().plusMillis(1500), 9302, 5, 1);
        assertThat(challenge(sale, activity, 666).statusCode(), is(403));
        admission.halt(seckill.admission.api.HaltReason.OPERATOR);
        try {
            HttpResponse<String> halted = challenge(sale, activity, 7);
            assertThat(halted.body(), halted.statusCode(), is(503));
            assertThat(halted.body(), containsString("HALTED"));
        } finally {
            admission.resume();
        }
        SaleFixture.await("the sale is over", Duration.ofSeconds(10), () -> challenge(sale, activity, 8).statusCode() == 409);
    }

    @Test
    void aChallengeTakesOneAnswerRightOrWrong() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createOpenActivity(9303, 5, 1);
        long buyer = activity * 1000 + 3;
        String challenge = challenge(sale, activity, buyer).body();
        String challengeId = SaleFixture.field(challenge, "challengeId");
        String answer = SaleFixture.captchaAnswer(redis, challengeId);
        String nonce = SaleFixture.proofOfWork(challenge);
        assertThat(token(sale, activity, buyer, challengeId, "WRONG", nonce).statusCode(), is(403));
        assertThat("the right answer comes too late", token(sale, activity, buyer, challengeId, answer, nonce)
                .statusCode(), is(403));
    }

    /** The proof of work in front of the captcha: missing is 400 (the challenge stays usable), wrong is 403 (used up). */
    @Test
    void aTokenNeedsTheProofOfWorkTheChallengeAskedFor() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createOpenActivity(9306, 5, 1);
        long buyer = activity * 1000 + 6;
        String challenge = challenge(sale, activity, buyer).body();
        String challengeId = SaleFixture.field(challenge, "challengeId");
        assertThat(challenge, containsString("\"proofOfWork\":{\"algorithm\":\"SHA-256\""));
        String answer = SaleFixture.captchaAnswer(redis, challengeId);

        HttpResponse<String> missing = token(sale, activity, buyer, challengeId, answer, null);
        assertThat(missing.body(), missing.statusCode(), is(400));
        assertThat(missing.body(), containsString("PROOF_OF_WORK_REQUIRED"));
        HttpResponse<String> solved = token(sale, activity, buyer, challengeId, answer, SaleFixture.proofOfWork(challenge));
        assertThat("the challenge was still usable: " + solved.body(), solved.statusCode(), is(201));

        String next = challenge(sale, activity, buyer).body();
        String nextId = SaleFixture.field(next, "challengeId");
        String wrongNonce = SaleFixture.notAProofOfWork(next);
        HttpResponse<String> wrong = token(sale, activity, buyer, nextId, SaleFixture.captchaAnswer(redis, nextId),
                wrongNonce);
        assertThat(wrong.body(), wrong.statusCode(), is(403));
        assertThat(wrong.body(), containsString("PROOF_OF_WORK_FAILED"));
        HttpResponse<String> late = token(sale, activity, buyer, nextId, SaleFixture.captchaAnswer(redis, nextId),
                SaleFixture.proofOfWork(next));
        assertThat("a wrong proof uses the challenge up", late.body(), containsString("CHALLENGE_FAILED"));
    }

    @Test
    void whileRedisDoesNotAnswerAChallengeIs503Not500() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createOpenActivity(9304, 5, 1);
        // longer than the client's 2 s timeout
        redis.sendCommand(Protocol.Command.CLIENT, "PAUSE", "3000");
        HttpResponse<String> during = challenge(sale, activity, activity * 1000 + 4);
        assertThat(during.body(), during.statusCode(), is(503));
        assertThat(during.body(), containsString("REDIS_UNAVAILABLE"));
        // blocks until the pause is over, so the next tests find Redis answering
        assertThat(redis.ping(), is("PONG"));
    }

    private static HttpResponse<String> challenge(SaleFixture sale, long activity, long buyer) {
        return sale.send(SaleFixture.asBuyer(HttpRequest.newBuilder(sale.base.resolve("/api/v1/activities/" + activity
                + "/challenges")), buyer).POST(HttpRequest.BodyPublishers.noBody()));
    }

    private static HttpResponse<String> token(SaleFixture sale, long activity, long buyer, String challengeId,
                                              String answer, String nonce) {
        return sale.send(SaleFixture.asBuyer(HttpRequest.newBuilder(sale.base.resolve("/api/v1/activities/" + activity
                        + "/tokens")), buyer).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"challengeId\":\"%s\",\"answer\":\"%s\"%s}".formatted(
                        challengeId, answer, nonce == null ? "" : ",\"nonce\":\"" + nonce + "\""))));
    }
}
