package seckill.app;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;

import io.helidon.dbclient.DbClient;
import io.helidon.microprofile.testing.junit5.AddConfig;
import io.helidon.microprofile.testing.junit5.HelidonTest;
import jakarta.inject.Inject;
import jakarta.ws.rs.client.WebTarget;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.UnifiedJedis;
import seckill.admission.api.Admission;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/**
 * Challenges are not free to mint: throttled per buyer, refused while halted, to blocked buyers and
 * after the sale, one answer per challenge, and 503 (not 500) while Redis does not answer.
 */
@HelidonTest
@AddConfig(key = "seckill.admin.token", value = SaleFixture.ADMIN_TOKEN)
@AddConfig(key = "seckill.admission.token-keys", value = "k1=challenges-test-key-of-some-length")
@AddConfig(key = "seckill.admission.challenges-per-buyer-per-minute", value = "5")
@AddConfig(key = "seckill.admission.blocked-users", value = "666")
class ChallengesTest {

    @Inject
    WebTarget target;

    @Inject
    DbClient db;

    @Inject
    UnifiedJedis redis;

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
        String challengeId = SaleFixture.field(challenge(sale, activity, buyer).body(), "challengeId");
        String answer = SaleFixture.captchaAnswer(redis, challengeId);
        assertThat(token(sale, activity, buyer, challengeId, "WRONG").statusCode(), is(403));
        assertThat("the right answer comes too late", token(sale, activity, buyer, challengeId, answer).statusCode(),
                is(403));
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
                                              String answer) {
        return sale.send(SaleFixture.asBuyer(HttpRequest.newBuilder(sale.base.resolve("/api/v1/activities/" + activity
                        + "/tokens")), buyer).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"challengeId\":\"%s\",\"answer\":\"%s\"}".formatted(challengeId, answer))));
    }
}
