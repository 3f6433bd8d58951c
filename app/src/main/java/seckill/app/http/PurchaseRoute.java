package seckill.app.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.microprofile.server.RoutingPath;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import seckill.admission.api.AdmissionDecision;
import seckill.app.sale.PlacingPurchase;
import seckill.app.sale.Purchase;
import seckill.app.sale.PurchaseOutcome;
import seckill.redis.World;
import seckill.reservation.api.ReservationId;

/**
 * The purchase route, {@code POST /api/v1/activities/{activityId}/purchases}: parses and
 * range-checks the request, hands it to {@link PlacingPurchase}, and answers its outcome
 * ({@link PurchaseAnswers}); every answer is counted by outcome. It is a Helidon web server route
 * inside the MP server rather than a JAX-RS resource: the flame graphs in docs/perf put half of a
 * trivial JAX-RS request's CPU in Jersey and HK2, and this is the one route a sale's traffic hits.
 * The contract is the JAX-RS one it replaced: problem+json, {@code 415} for another media type,
 * {@code 405} for another method, the body limit of the public API ({@link BodyLimits}), and
 * {@code 503 BUSY} beyond {@code seckill.http.max-purchases-in-flight}.
 */
@ApplicationScoped
@RoutingPath("/api/v1/activities")
public class PurchaseRoute implements HttpService {

    /** The characters a requestId may hold, {@code [A-Za-z0-9._:-]}, by code point below 128. */
    private static final boolean[] REQUEST_ID_CHARS = new boolean[128];

    static {
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-".chars()
                .forEach(c -> REQUEST_ID_CHARS[c] = true);
    }
    private static final HeaderName TOKEN = HeaderNames.create(PurchaseAnswers.TOKEN_HEADER);
    private static final HeaderName PASS = HeaderNames.create(PurchaseAnswers.PASS_HEADER);
    private static final HeaderName FORWARDED_FOR = HeaderNames.create("X-Forwarded-For");
    private static final String JSON = "application/json";
    private static final Logger LOG = Logger.getLogger(PurchaseRoute.class.getName());
    private static final Metadata TOKEN_REFUSALS = Metadata.builder().withName("seckill.purchase.token.refusals")
            .withDescription("Purchases refused 403 TOKEN_INVALID, by why the purchase token was not valid (MISSING, "
                    + "MALFORMED, EXPIRED, BAD_SIGNATURE, UNKNOWN_KEY, OTHER_BUYER, OTHER_ACTIVITY, ...); the client "
                    + "is not told the reason. Many BAD_SIGNATURE or OTHER_BUYER means forged or shared tokens.")
            .build();
    private static final Metadata PURCHASES = Metadata.builder().withName("seckill.purchases")
            .withDescription("Purchase requests answered by this instance, by outcome: reserved (202), duplicate (200, "
                    + "a repeat of the buyer's reservation), else the problem code in lower case (sold_out, "
                    + "throttled, halted, busy, token_invalid, ...).")
            .build();
    /** Registered at start, so the series exist (at 0) before the first purchase; other outcomes as they occur. */
    private static final List<String> FIRST_OUTCOMES = List.of("reserved", "duplicate");
    /** The reasons admission gives today, registered at start; a new reason is counted under the same help. */
    private static final List<String> TOKEN_REFUSAL_REASONS = List.of("MISSING", "USED", "MALFORMED", "UNKNOWN_KEY",
            "BAD_SIGNATURE", "EXPIRED", "OTHER_BUYER", "OTHER_ACTIVITY", "NOT_CONFIGURED");

    private final ClientAddress clientAddress;
    private final BuyerAuthentication buyers;
    private final PlacingPurchase placing;
    private final RehearsalGate rehearsals;
    private final MetricRegistry metrics;
    private final long bodyLimit;
    /** By world, then outcome: a rehearsal's purchases carry {@code world="rehearsal"} (docs/rehearsal.md). */
    private final Map<World, Map<String, Counter>> outcomes = new EnumMap<>(World.class);
    private final Map<World, Map<String, Counter>> tokenRefusals = new EnumMap<>(World.class);

    @Inject
    PurchaseRoute(ClientAddress clientAddress, BuyerAuthentication buyers, PlacingPurchase placing,
                  RehearsalGate rehearsals, MetricRegistry metrics,
                  @ConfigProperty(name = "seckill.http.max-public-body-bytes", defaultValue = "16384") long bodyLimit) {
        this.clientAddress = clientAddress;
        this.buyers = buyers;
        this.placing = placing;
        this.rehearsals = rehearsals;
        this.metrics = metrics;
        this.bodyLimit = bodyLimit;
        for (World world : World.values()) {
            outcomes.put(world, new ConcurrentHashMap<>());
            tokenRefusals.put(world, new ConcurrentHashMap<>());
        }
        // the real series exist (at 0) from the start; a rehearsal's appear when a rehearsal moves them
        FIRST_OUTCOMES.forEach(o -> count(World.REAL, o, 0));
        TOKEN_REFUSAL_REASONS.forEach(r -> tokenRefusal(World.REAL, r));
    }

    /** For CDI's proxy. */
    PurchaseRoute() {
        this.clientAddress = null;
        this.buyers = null;
        this.placing = null;
        this.rehearsals = null;
        this.metrics = null;
        this.bodyLimit = 0;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.any("/{activityId}/purchases", this::purchase);
    }

    private void purchase(ServerRequest request, ServerResponse response) {
        String activityIdText = request.path().pathParameters().get("activityId");
        if (request.prologue().method() != Method.POST) {
            send(response, request, new Problem(405, "METHOD_NOT_ALLOWED", "Method not allowed",
                    "This resource does not support that method.").header("Allow", "POST"));
            return;
        }
        // the real world's until the edge's mark let a rehearsal through: a request refused before (unparsed, or a
        // rehearsal-range id without a valid mark) is traffic at the real sale, and counts there
        World world = World.REAL;
        try {
            Purchase purchase = parse(request, activityIdText);
            // the edge's rehearsal mark, where an unknown activity is told so: before admission reads any key
            rehearsals.check(request, purchase.activityId(), purchase::userId);
            world = World.of(purchase.activityId());
            PurchaseOutcome outcome = placing.place(purchase);
            if (outcome instanceof PurchaseOutcome.NotAdmitted refused
                    && refused.refusal() instanceof AdmissionDecision.TokenInvalid invalid) {
                tokenRefused(world, invalid.reason(), purchase);
            }
            PurchaseAnswers.Accepted accepted = PurchaseAnswers.of(outcome);
            count(world, accepted.status() == 202 ? "reserved" : "duplicate", 1);
            response.status(Status.create(accepted.status()));
            response.header(HeaderNames.LOCATION, accepted.location());
            response.header(HeaderNames.CONTENT_TYPE, JSON);
            response.send(accepted.json().getBytes(StandardCharsets.UTF_8));
        } catch (Problem problem) {
            count(world, problem.code().toLowerCase(), 1);
            if (problem.status() == 410) {
                // a buyer whose first answer was lost learns where to find what they hold, at no Redis cost
                String mine = BuyerReservationsResource.pathOf(Buyer.pathId(activityIdText, "activity"));
                problem.with("reservations", mine).header("Link", "<" + mine + ">; rel=\"reservations\"");
            }
            send(response, request, problem);
        } catch (RuntimeException failure) {
            Problem problem = ProblemMapper.of(failure);
            count(world, problem.code().toLowerCase(), 1);
            send(response, request, problem);
        }
    }

    private Purchase parse(ServerRequest request, String activityIdText) {
        var headers = request.headers();
        long userId = buyers.buyerOf(request);
        long activityId = Buyer.pathId(activityIdText, "activity");
        // the plain "application/json" every client sends is taken as it is; the profile had parsing
        // it into a media type at 1.5 % of the paced purchase path (docs/perf/README.md)
        if (!headers.first(HeaderNames.CONTENT_TYPE).map(JSON::equals).orElse(true)) {
            headers.contentType().ifPresent(type -> {
                if (!type.test(io.helidon.common.media.type.MediaTypes.APPLICATION_JSON)) {
                    throw new Problem(415, "UNSUPPORTED_MEDIA_TYPE", "Unsupported media type", "Send the body as application/json.");
                }
            });
        }
        JsonBody json = JsonBody.parse(body(request));
        long skuId = json.integer("skuId", true, 1, ReservationId.MAX_PART).orElse(0L);
        long quantity = json.integer("quantity", false, 1, Integer.MAX_VALUE).orElse(1L);
        String requestId = json.text("requestId", true, 64).orElse(null);
        if (requestId != null && !isRequestId(requestId)) {
            json.fail("requestId", "may only hold letters, digits and . _ : -");
        }
        json.check();
        String clientIp = clientAddress.of(request, headers.first(FORWARDED_FOR).orElse(null));
        return new Purchase(activityId, skuId, quantity, userId, clientIp, requestId,
                Optional.ofNullable(headers.first(TOKEN).orElse(null)), Optional.ofNullable(headers.first(PASS).orElse(null)));
    }

    /**
     * {@code [A-Za-z0-9._:-]{1,64}} by a table, not a regex: the regex was 2.3 % of the paced purchase
     * path's CPU in the JFR profile (docs/perf/README.md).
     */
    static boolean isRequestId(String text) {
        if (text.isEmpty() || text.length() > 64) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= REQUEST_ID_CHARS.length || !REQUEST_ID_CHARS[c]) {
                return false;
            }
        }
        return true;
    }

    /** The body, never read past the public limit: a declared length over it is refused unread. */
    private String body(ServerRequest request) {
        var declared = request.headers().contentLength();
        if (declared.isPresent() && declared.getAsLong() > bodyLimit) {
            throw BodyLimits.tooLarge(bodyLimit);
        }
        if (!request.content().hasEntity()) {
            return "";
        }
        try (InputStream in = request.content().inputStream()) {
            // a declared length is read exactly (plus one byte to notice a body longer than declared):
            // the flame graph showed a 16 KiB buffer per purchase as a tenth of the sold-out path
            long expected = declared.isPresent() ? declared.getAsLong() : bodyLimit;
            byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, expected + 1));
            if (bytes.length > bodyLimit) {
                throw BodyLimits.tooLarge(bodyLimit);
            }
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void send(ServerResponse response, ServerRequest request, Problem problem) {
        response.status(Status.create(problem.status()));
        response.header(HeaderNames.CONTENT_TYPE, Problem.MEDIA_TYPE);
        problem.headers().forEach((name, value) -> response.header(HeaderNames.create(name), value));
        response.send(problem.json(request.path().absolute().rawPath()).getBytes(StandardCharsets.UTF_8));
    }

    /** The reason the client is not told, for operators: counted, and logged at FINE (a flood would fill the log). */
    private void tokenRefused(World world, String reason, Purchase purchase) {
        tokenRefusal(world, reason).inc();
        LOG.log(Level.FINE, () -> "purchase token refused (" + reason + ") for buyer " + purchase.userId() + " from "
                + purchase.clientIp() + " on activity " + purchase.activityId());
    }

    private Counter tokenRefusal(World world, String reason) {
        return tokenRefusals.get(world).computeIfAbsent(reason,
                r -> metrics.counter(TOKEN_REFUSALS, new Tag("reason", r), new Tag(World.LABEL, world.label())));
    }

    private void count(World world, String outcome, long by) {
        Counter counter = outcomes.get(world).computeIfAbsent(outcome,
                o -> metrics.counter(PURCHASES, new Tag("outcome", o), new Tag(World.LABEL, world.label())));
        if (by > 0) {
            counter.inc(by);
        }
    }
}
