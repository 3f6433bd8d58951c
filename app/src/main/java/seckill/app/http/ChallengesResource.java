package seckill.app.http;

import java.time.Duration;
import java.util.Base64;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import io.helidon.webserver.http.ServerRequest;
import jakarta.ws.rs.core.Context;
import seckill.admission.api.CaptchaChallenge;
import seckill.admission.api.ChallengeIssue;
import seckill.admission.api.PurchaseTokens;
import seckill.admission.api.SaleWindow;
import seckill.admission.api.TokenIssue;
import seckill.ledger.api.catalogue.Activity;

/**
 * Captcha challenges and the purchase tokens they unlock. A challenge can be fetched until the sale
 * ends (throttled per buyer and address, refused while halted or blocked); a token only while the
 * activity is open. A challenge takes one answer: right or wrong, it is used up.
 */
@Path("/api/v1/activities/{activityId}")
@ApplicationScoped
public class ChallengesResource {

    private final RehearsalGate rehearsals;
    private final PurchaseTokens tokens;
    private final ClientAddress clientAddress;
    private final BuyerAuthentication buyers;

    @Inject
    ChallengesResource(RehearsalGate rehearsals,
                       PurchaseTokens tokens,
                       ClientAddress clientAddress,
                       BuyerAuthentication buyers) {
        this.rehearsals = rehearsals;
        this.tokens = tokens;
        this.clientAddress = clientAddress;
        this.buyers = buyers;
    }

    @POST
    @Path("challenges")
    @Produces(MediaType.APPLICATION_JSON)
    public Response challenge(@PathParam("activityId") String activityIdText,
                              @HeaderParam("X-Forwarded-For") String forwardedFor, @Context ServerRequest request) {
        long userId = buyers.buyerOf(request);
        Activity activity = rehearsals.activity(request, activityIdText, () -> userId);
        ChallengeIssue issue = tokens.challenge(activity.id(), userId, clientAddress.of(request, forwardedFor),
                new SaleWindow(activity.startsAt(), activity.endsAt()));
        ChallengeIssue.Issued issued = switch (issue) {
            case ChallengeIssue.Issued i -> i;
            case ChallengeIssue.Halted halted -> throw new Problem(503, "HALTED", "Sales halted",
                    "Sales are paused (" + halted.reason().words() + "); ask again later.", Duration.ofSeconds(2));
            case ChallengeIssue.Blocked blocked -> throw new Problem(403, "BLOCKED", "Blocked",
                    "This " + blocked.what() + " may not take part in the sale.");
            case ChallengeIssue.Ended ended -> throw new Problem(409, "ENDED", "Ended",
                    "The sale ended at " + activity.endsAt() + ".");
            case ChallengeIssue.Throttled throttled -> throw new Problem(429, "THROTTLED", "Too many challenges",
                    "Too many challenges for this " + ("BUYER".equals(throttled.limit()) ? "buyer" : "address")
                            + " this minute; solve the one you have, or ask again after Retry-After.",
                    Duration.ofSeconds(throttled.retryAfterSeconds()))
                    .with("limit", throttled.limit())
                    .header("X-RateLimit-Limit", Long.toString(throttled.perMinute()))
                    .header("X-RateLimit-Remaining", "0");
            case ChallengeIssue.Unavailable unavailable -> throw new Problem(503, "REDIS_UNAVAILABLE",
                    "Temporarily unavailable", "Challenges cannot be issued right now.", Duration.ofSeconds(2));
        };
        CaptchaChallenge challenge = issued.challenge();
        return Response.status(201).entity(Jsons.PROVIDER.createObjectBuilder()
                .add("challengeId", challenge.challengeId())
                .add("image", "data:image/png;base64," + Base64.getEncoder().encodeToString(challenge.png()))
                .add("expiresAt", challenge.expiresAt().toString())
                // what the answer must carry besides the text: a nonce whose hash starts with this many zero bits
                .add("proofOfWork", Jsons.PROVIDER.createObjectBuilder()
                        .add("algorithm", "SHA-256")
                        .add("input", challenge.challengeId() + ":<nonce>")
                        .add("leadingZeroBits", issued.proofOfWorkBits()))
                .build().toString()).build();
    }

    @POST
    @Path("tokens")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response token(@PathParam("activityId") String activityIdText, @Context ServerRequest request,
                          String body) {
        long userId = buyers.buyerOf(request);
        JsonBody json = JsonBody.parse(body);
        String challengeId = json.text("challengeId", true, 64).orElse(null);
        String answer = json.text("answer", true, 32).orElse(null);
        String nonce = json.text("nonce", false, 64).orElse(null);
        json.check();
        Activity activity = rehearsals.activity(request, activityIdText, () -> userId);
        TokenIssue issue = tokens.issue(activity.id(), userId, challengeId, answer, nonce,
                new SaleWindow(activity.startsAt(), activity.endsAt()));
        return switch (issue) {
            case TokenIssue.Issued issued -> Response.status(201).entity(Jsons.PROVIDER.createObjectBuilder()
                    .add("token", issued.token())
                    .add("expiresAt", issued.expiresAt().toString())
                    .add("header", PurchaseAnswers.TOKEN_HEADER)
                    .build().toString()).build();
            case TokenIssue.ChallengeFailed failed -> throw new Problem(403, "CHALLENGE_FAILED", "Challenge failed",
                    "The answer is wrong, or the challenge is unknown, used or expired; ask for a new challenge.");
            case TokenIssue.ProofOfWorkFailed failed when failed.missing() -> throw new Problem(400,
                    "PROOF_OF_WORK_REQUIRED", "Proof of work required",
                    "Send \"nonce\": a value such that SHA-256(challengeId + \":\" + nonce) starts with the challenge's "
                            + "proofOfWork.leadingZeroBits zero bits. The challenge is still usable.");
            case TokenIssue.ProofOfWorkFailed failed -> throw new Problem(403, "PROOF_OF_WORK_FAILED",
                    "Proof of work failed", "The nonce does not prove the work the challenge asked for; the challenge "
                            + "is used up, ask for a new one.");
            case TokenIssue.NotOpen notOpen -> {
                if (notOpen.notStartedYet()) {
                    throw new Problem(409, "NOT_STARTED", "Not started",
                            "Purchase tokens are issued only once the sale has started at " + activity.startsAt() + ".",
                            Duration.ofSeconds(notOpen.secondsUntilStart()));
                }
                throw new Problem(409, "ENDED", "Ended", "The sale ended at " + activity.endsAt() + ".");
            }
        };
    }
}
