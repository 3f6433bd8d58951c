package seckill.settlement;

import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.logging.Logger;
import java.util.regex.Pattern;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import seckill.ledger.api.AmountDue;
import seckill.ledger.api.OrderPayments;
import seckill.ledger.api.Payment;
import seckill.ledger.api.PaymentResult;
import seckill.redis.World;
import seckill.settlement.api.PaymentAnswer;
import seckill.settlement.api.PaymentCallbacks;
import seckill.settlement.rules.CallbackSignature;
import seckill.settlement.rules.JsonNesting;
import seckill.settlement.rules.Price;

/**
 * Payment callbacks: the signature (over the signed timestamp and the raw bytes, within the window of
 * this service's clock) is checked before anything is parsed, the amount and currency must be exactly
 * what the order is due (its recorded unit price times its quantity; for an order without a price, the
 * configured {@code seckill.payment.price}), then the ledger decides in one transaction: the order's
 * PENDING to PAID compare-and-set, which also requires the order's deadline not to have passed, and the payment's row in
 * seckill_payment, whose key keeps one payment id to one order.
 */
@ApplicationScoped
class ConfirmingPayments implements PaymentCallbacks {
    private static final Metadata PAYMENTS = Metadata.builder().withName("seckill.payments")
            .withDescription("Payment callbacks by outcome (the answer given): accepted, paidbyanother, expired, "
                    + "unknownorder, paymentidreused, amountmismatch, badsignature, stalesignature, invalid, "
                    + "notconfigured.").build();

    private static final Logger LOG = Logger.getLogger(ConfirmingPayments.class.getName());
    private static final Pattern ORDER_NO = Pattern.compile("[0-9A-Z]{24}");
    private static final Pattern PAYMENT_ID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");
    private static final JsonProvider JSON = JsonProvider.provider();
    // DATETIME's range; a later instant would be refused by SQL, after the signature was spent
    private static final Instant LATEST_PAID_AT = Instant.parse("9999-12-31T23:59:59Z");
    /** A callback is one flat object; deeper bodies are refused before the parser sees them (issue #36). */
    private static final int MAX_DEPTH = 8;

    private final OrderPayments ledger;
    private final Clock clock;
    private final MetricRegistry metrics;
    private final SettlementSettings settings;

    @Inject
    ConfirmingPayments(OrderPayments ledger,
                       Clock clock,
                       MetricRegistry metrics,
                       SettlementSettings settings) {
        this.ledger = ledger;
        this.clock = clock;
        this.metrics = metrics;
        this.settings = settings;
    }

    private CallbackSignature signature;
    private Price price;

    @PostConstruct
    void init() {
        // every outcome registered now, so each series (and its help) exists before its first callback
        for (Class<?> answer : PaymentAnswer.class.getPermittedSubclasses()) {
            metrics.counter(PAYMENTS, new Tag("outcome", outcome(answer)), new Tag(World.LABEL, World.REAL.label()));
        }
        // in dev mode the app's dev-defaults config source supplies a well-known key and price
        if (settings.paymentKey().isPresent()) {
            signature = new CallbackSignature(settings.paymentKey().get(), settings.signatureWindow());
        } else {
            LOG.warning("seckill.payment.hmac-key is not set: payment callbacks are refused until it is");
        }
        price = settings.paymentPrice().orElse(null);
        if (price == null) {
            LOG.warning("seckill.payment.price and seckill.payment.currency are not both set: payment callbacks"
                    + " for orders of SKUs without a price are refused until they are");
        }
    }

    @Override
    public PaymentAnswer handle(byte[] rawBody, String signatureHeader) {
        if (signature == null) {
            return count(new PaymentAnswer.NotConfigured("seckill.payment.hmac-key"));
        }
        Instant now = clock.instant();
        switch (signature.verify(rawBody, signatureHeader, now)) {
            case CallbackSignature.Forged forged -> {
                return count(new PaymentAnswer.BadSignature());
            }
            case CallbackSignature.Stale stale -> {
                return count(new PaymentAnswer.StaleSignature(settings.signatureWindow()));
            }
            case CallbackSignature.Valid valid -> {
                // signed within the window: read on
            }
        }
        if (JsonNesting.deeperThan(rawBody, MAX_DEPTH)) {
            return count(new PaymentAnswer.Invalid("the body nests arrays or objects deeper than " + MAX_DEPTH + " levels"));
        }
        JsonObject body;
        try (JsonReader reader = JSON.createReader(new ByteArrayInputStream(rawBody))) {
            JsonValue value = reader.readValue();
            if (!(value instanceof JsonObject object)) {
                return count(new PaymentAnswer.Invalid("the body must be a JSON object"));
            }
            body = object;
        } catch (JsonException e) {
            return count(new PaymentAnswer.Invalid("the body is not valid JSON"));
        } catch (NumberFormatException | UnsupportedOperationException e) {
            // Parsson makes each number a BigDecimal as it reads it; an exponent beyond an int
            // (1e99999999999) or more than its 1,100 characters is thrown from there, not as a JsonException
            return count(new PaymentAnswer.Invalid("a number in the body is out of range (amount: at most "
                    + Price.MAX_INTEGER_DIGITS + " digits before the point and " + Price.SCALE + " after it)"));
        }
        String orderNo = text(body, "orderNo");
        String paymentId = text(body, "paymentId");
        String paidAtText = text(body, "paidAt");
        if (orderNo == null || !ORDER_NO.matcher(orderNo).matches()) {
            return count(new PaymentAnswer.Invalid("orderNo must be the 24-character order number"));
        }
        // the order's world from here on: a rehearsal's payment counts under world="rehearsal" (docs/rehearsal.md)
        World world = OrderPayments.worldOf(orderNo);
        if (paymentId == null || !PAYMENT_ID.matcher(paymentId).matches()) {
            return count(world, new PaymentAnswer.Invalid("paymentId must be 1..64 of A-Z a-z 0-9 . _ : -"));
        }
        Instant paidAt;
        try {
            paidAt = Instant.parse(String.valueOf(paidAtText));
        } catch (DateTimeParseException e) {
            return count(world, new PaymentAnswer.Invalid("paidAt must be an ISO-8601 instant"));
        }
        if (paidAt.isBefore(Instant.EPOCH) || paidAt.isAfter(LATEST_PAID_AT)) {
            return count(world, new PaymentAnswer.Invalid("paidAt must be between 1970 and 9999"));
        }
        // the order's own price when it has one (issue #33), else the configured price; after the
        // signature, so a stranger is told 401 whatever this instance lacks
        Price due;
        switch (ledger.amountDue(orderNo)) {
            case AmountDue.Priced priced -> due = new Price(priced.amount(), priced.currency());
            case AmountDue.NotPriced notPriced -> {
                if (price == null) {
                    return count(world, notConfigured());
                }
                due = price;
            }
            case AmountDue.NoOrder none -> {
                if (price == null) {
                    return count(world, new PaymentAnswer.UnknownOrder(orderNo));
                }
                due = price;
            }
        }
        Payment payment;
        switch (due.judge(amount(body), text(body, "currency"))) {
            case Price.Malformed malformed -> {
                return count(world, new PaymentAnswer.Invalid(malformed.detail()));
            }
            case Price.Mismatch mismatch -> {
                return count(world, new PaymentAnswer.AmountMismatch(orderNo, mismatch.detail()));
            }
            case Price.Matches matches -> payment = new Payment(orderNo, paymentId, matches.amount(),
                    matches.currency(), paidAt);
        }
        PaymentAnswer answer = switch (ledger.pay(payment, now)) {
            case PaymentResult.Paid paid -> new PaymentAnswer.Accepted(orderNo, paymentId, false);
            case PaymentResult.AlreadyPaid already -> paymentId.equals(already.paymentId())
                    ? new PaymentAnswer.Accepted(orderNo, paymentId, true)
                    : new PaymentAnswer.PaidByAnother(orderNo, already.paymentId());
            case PaymentResult.Expired expired -> new PaymentAnswer.Expired(orderNo);
            case PaymentResult.UnknownOrder unknown -> new PaymentAnswer.UnknownOrder(orderNo);
            case PaymentResult.PaymentIdUsed used -> new PaymentAnswer.PaymentIdReused(orderNo, paymentId,
                    used.usedFor());
        };
        return count(world, answer);
    }

    private PaymentAnswer.NotConfigured notConfigured() {
        return new PaymentAnswer.NotConfigured(settings.price().isEmpty() ? "seckill.payment.price"
                : "seckill.payment.currency");
    }

    /** A callback refused before its order number was read: the real world's, as any request naming nothing. */
    private PaymentAnswer count(PaymentAnswer answer) {
        return count(World.REAL, answer);
    }

    private PaymentAnswer count(World world, PaymentAnswer answer) {
        metrics.counter(PAYMENTS, new Tag("outcome", outcome(answer.getClass())), new Tag(World.LABEL, world.label()))
                .inc();
        return answer;
    }

    /** The outcome tag of an answer: its type's name in lower case ({@code accepted}, {@code badsignature}, …). */
    private static String outcome(Class<?> answer) {
        return answer.getSimpleName().toLowerCase(java.util.Locale.ROOT);
    }

    private static String text(JsonObject body, String field) {
        return body.get(field) instanceof JsonString s ? s.getString() : null;
    }

    /** The amount exactly as written, or null when it is no number (a string, or digits no decimal holds). */
    private static BigDecimal amount(JsonObject body) {
        if (!(body.get("amount") instanceof JsonNumber number)) {
            return null;
        }
        try {
            return number.bigDecimalValue();
        } catch (NumberFormatException | ArithmeticException | UnsupportedOperationException e) {
            // an exponent beyond int (1e99999999999), or longer than the JSON provider converts
            return null;
        }
    }
}
