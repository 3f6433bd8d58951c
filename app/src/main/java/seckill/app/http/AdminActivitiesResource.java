package seckill.app.http;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import seckill.app.sale.LaunchingActivities;
import seckill.ledger.api.IdempotentRequest;
import seckill.ledger.api.catalogue.NewActivity;
import seckill.ledger.api.catalogue.SkuLine;
import seckill.ledger.api.catalogue.SkuPrice;
import seckill.redis.World;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.ReservationUnavailable;

/** Operators create activities here; the body is validated completely before anything is written. */
@AdminOnly
@Path("/api/v1/admin/activities")
@ApplicationScoped
public class AdminActivitiesResource {

    static final long MAX_STOCK = 10_000_000;
    static final int MAX_PER_USER = 1_000;
    static final int MAX_BUCKETS = 64;
    static final int MAX_SKUS = 100;
    static final int DEFAULT_PAYMENT_WINDOW_SECONDS = 900;

    private final LaunchingActivities launching;
    private final Clock clock;
    private final Pictures pictures;

    @Inject
    AdminActivitiesResource(LaunchingActivities launching,
                            Clock clock,
                            Pictures pictures) {
        this.launching = launching;
        this.clock = clock;
        this.pictures = pictures;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response create(@HeaderParam("Idempotency-Key") String idempotencyKey, String body) {
        LaunchRequest asked = readLaunch(JsonBody.parse(body), clock.instant(), pictures::problemWith);
        if (asked.rehearsal() && !launching.rehearsalsAvailable()) {
            throw rehearsalNotAvailable();
        }
        NewActivity activity = asked.activity();
        LaunchingActivities.Launch launched;
        try {
            Optional<IdempotentRequest> request = idempotencyKey == null ? Optional.empty()
                    : Optional.of(idempotentRequest(idempotencyKey, body));
            launched = asked.rehearsal() ? launching.launch(World.REHEARSAL, activity, request)
                    : request.isEmpty() ? new LaunchingActivities.Launch(launching.launch(activity), false)
                    : launching.launch(activity, request.get());
        } catch (IdempotentRequest.Conflict e) {
            throw new Problem(422, "IDEMPOTENCY_KEY_REUSED", "Idempotency key reused",
                    "This Idempotency-Key was used for a different request; use a new key for a new activity.");
        } catch (ReservationUnavailable e) {
            throw new Problem(503, "REDIS_UNAVAILABLE", "Redis unavailable",
                    "The activity could not be preheated into Redis; it is not on sale. Retry once Redis is back"
                            + (idempotencyKey == null ? " (send an Idempotency-Key so a retry cannot create a second one)."
                            : " with the same Idempotency-Key: it finishes this activity."),
                    Duration.ofSeconds(5));
        }
        Response.ResponseBuilder response = Response.created(URI.create("/api/v1/activities/" + launched.activity().id()))
                .entity(ActivityJson.admin(launched.activity()).toString());
        if (launched.replayed()) {
            response.header("Idempotent-Replayed", "true");
        }
        return response.build();
    }

    private static IdempotentRequest idempotentRequest(String key, String body) {
        if (key.isBlank() || key.length() > 200) {
            throw new Problem(400, "INVALID_REQUEST", "Invalid request", "Idempotency-Key must be 1..200 characters.");
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(body.getBytes(StandardCharsets.UTF_8));
            return new IdempotentRequest(key, HexFormat.of().formatHex(digest));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A launch as asked: the activity, and whether it is a rehearsal ({@code "rehearsal": true}). */
    record LaunchRequest(NewActivity activity, boolean rehearsal) {
    }

    /**
     * {@link #readLaunch} for a service that launches no rehearsal: {@code "rehearsal": true} answers 501
     * REHEARSAL_NOT_AVAILABLE (never read as a real activity), nothing created.
     */
    static NewActivity read(JsonBody body, Instant now, Function<String, Optional<String>> pictureProblem) {
        LaunchRequest asked = readLaunch(body, now, pictureProblem);
        if (asked.rehearsal()) {
            throw rehearsalNotAvailable();
        }
        return asked.activity();
    }

    private static Problem rehearsalNotAvailable() {
        // issue #34: a drill asking for a shadow sale must never get a real activity instead
        return new Problem(501, "REHEARSAL_NOT_AVAILABLE", "Rehearsal not available",
                "This service does not launch rehearsals (shadow sales, docs/rehearsal.md): "
                        + "seckill.rehearsal.launch.enabled is off or no shadow database (seckill.rehearsal.db.url) "
                        + "is configured; nothing was created.");
    }

    /** {@code pictureProblem}: why a picture's file name cannot be used here ({@link Pictures#problemWith}). */
    static LaunchRequest readLaunch(JsonBody body, Instant now, Function<String, Optional<String>> pictureProblem) {
        Optional<String> name = body.text("name", true, 200);
        Optional<Instant> startsAt = body.instant("startsAt", true);
        Optional<Instant> endsAt = body.instant("endsAt", true);
        long paymentWindow = body.integer("paymentWindowSeconds", false, 1, 86_400)
                .orElse((long) DEFAULT_PAYMENT_WINDOW_SECONDS);
        List<SkuLine> skus = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        List<JsonBody> skuBodies = body.objects("skus", 1, MAX_SKUS);
        for (JsonBody sku : skuBodies) {
            Optional<Long> skuId = sku.integer("skuId", true, 1, ReservationId.MAX_PART);
            Optional<Long> stock = sku.integer("stock", true, 1, MAX_STOCK);
            long perUser = sku.integer("perUserLimit", false, 1, MAX_PER_USER).orElse(1L);
            long buckets = sku.integer("buckets", false, 1, MAX_BUCKETS).orElse(1L);
            Showing showing = showing(sku, pictureProblem);
            skuId.ifPresent(id -> {
                if (!seen.add(id)) {
                    sku.fail("skuId", "is listed twice");
                }
            });
            if (skuId.isPresent() && stock.isPresent()) {
                if (buckets > stock.get()) {
                    sku.fail("buckets", "must not exceed stock");
                } else if (showing.complete()) {
                    skus.add(new SkuLine(skuId.get(), stock.get(), (int) perUser, (int) buckets, showing.name(),
                            showing.price(), showing.picture()));
                }
            }
        }
        if (startsAt.isPresent() && endsAt.isPresent()) {
            if (!endsAt.get().isAfter(startsAt.get())) {
                body.fail("endsAt", "must be after startsAt");
            } else if (!endsAt.get().isAfter(now)) {
                body.fail("endsAt", "must be in the future");
            }
        }
        boolean rehearsal = body.bool("rehearsal").orElse(false);
        body.check();
        return new LaunchRequest(new NewActivity(name.orElseThrow(), startsAt.orElseThrow(), endsAt.orElseThrow(),
                Duration.ofSeconds(paymentWindow), skus), rehearsal);
    }

    /** A decimal as written: digits, optionally a point and digits; no sign, exponent or spaces. */
    private static final Pattern DECIMAL = Pattern.compile("[0-9]{1,30}(\\.[0-9]{1,30})?");

    /**
     * What a SKU shows (issue #33), each part optional; {@code complete} is false when a part was
     * given but refused (the refusal is recorded in the body).
     */
    private record Showing(Optional<String> name, Optional<SkuPrice> price, Optional<String> picture, boolean complete) {
    }

    private static Showing showing(JsonBody sku, Function<String, Optional<String>> pictureProblem) {
        boolean complete = true;
        Optional<String> name = sku.string("name", false);
        if (name.isPresent()) {
            Optional<String> problem = SkuLine.nameProblem(name.get());
            if (problem.isPresent()) {
                sku.fail("name", problem.get());
                name = Optional.empty();
                complete = false;
            }
        }
        Optional<SkuPrice> price = Optional.empty();
        Optional<JsonBody> priceBody = sku.object("price");
        if (priceBody.isPresent()) {
            price = price(priceBody.get());
            complete &= price.isPresent();
        }
        Optional<String> picture = sku.string("picture", false);
        if (picture.isPresent()) {
            Optional<String> problem = pictureProblem.apply(picture.get());
            if (problem.isPresent()) {
                sku.fail("picture", problem.get());
                picture = Optional.empty();
                complete = false;
            }
        }
        return new Showing(name, price, picture, complete);
    }

    /** {@code {"amount": "19.99", "currency": "EUR"}}: the amount a string, so it stays exact. */
    private static Optional<SkuPrice> price(JsonBody price) {
        Optional<String> amountText = price.string("amount", true);
        Optional<String> currency = price.string("currency", true);
        boolean valid = amountText.isPresent() && currency.isPresent();
        if (currency.isPresent()) {
            Optional<String> problem = SkuPrice.currencyProblem(currency.get());
            if (problem.isPresent()) {
                price.fail("currency", problem.get());
                valid = false;
            }
        }
        if (amountText.isPresent()) {
            if (!DECIMAL.matcher(amountText.get()).matches()) {
                price.fail("amount", "must be a decimal amount written as a string, such as \"19.99\"");
                valid = false;
            } else {
                Optional<String> problem = SkuPrice.amountProblem(new java.math.BigDecimal(amountText.get()),
                        currency.filter(c -> SkuPrice.currencyProblem(c).isEmpty()).orElse(null));
                if (problem.isPresent()) {
                    price.fail("amount", problem.get());
                    valid = false;
                }
            }
        }
        return valid ? Optional.of(new SkuPrice(new java.math.BigDecimal(amountText.get()), currency.get()))
                : Optional.empty();
    }
}
