package seckill.settlement;

import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.logging.Logger;
import java.util.regex.Pattern;

import io.helidon.dbclient.DbClient;
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
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import seckill.ordering.api.OrderLedger;
import seckill.ordering.api.PaymentResult;
import seckill.settlement.api.PaymentAnswer;
import seckill.settlement.api.PaymentCallbacks;
import seckill.settlement.rules.JsonNesting;
import seckill.settlement.sql.SettlementRows;

/**
 * Payment callbacks: the signature is checked over the raw bytes before anything is parsed, then
 * the ledger's PENDING to PAID compare-and-set decides. Accepted callbacks are kept in
 * seckill_payment for the payment side's audits.
 */
@ApplicationScoped
class ConfirmingPayments implements PaymentCallbacks {

    private static final Logger LOG = Logger.getLogger(ConfirmingPayments.class.getName());
    private static final Pattern ORDER_NO = Pattern.compile("[0-9A-Z]{24}");
    private static final Pattern PAYMENT_ID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");
    private static final JsonProvider JSON = JsonProvider.provider();
    /** A callback is one flat object; deeper bodies are refused before the parser sees them (issue #36). */
    private static final int MAX_DEPTH = 8;

    private final OrderLedger ledger;
    private final DbClient db;
    private final Clock clock;
    private final MetricRegistry metrics;
    private final Optional<String> configuredKey;

    @Inject
    ConfirmingPayments(OrderLedger ledger,
                       DbClient db,
                       Clock clock,
                       MetricRegistry metrics,
                       SettlementSettings settings) {
        this.ledger = ledger;
        this.db = db;
        this.clock = clock;
        this.metrics = metrics;
        this.configuredKey = settings.paymentKey();
    }

    private PaymentSignature signature;
    private SettlementRows rows;

    @PostConstruct
    void init() {
        rows = new SettlementRows(db);
        // in dev mode the app's dev-defaults config source supplies a well-known key
        if (configuredKey.filter(k -> !k.isBlank()).isPresent()) {
            signature = new PaymentSignature(configuredKey.get());
        } else {
            LOG.warning("seckill.payment.hmac-key is not set: payment callbacks are refused until it is");
        }
    }

    @Override
    public PaymentAnswer handle(byte[] rawBody, String signatureHeader) {
        if (signature == null) {
            return count(new PaymentAnswer.NotConfigured());
        }
        if (rawBody == null || !signature.verifies(rawBody, signatureHeader)) {
            return count(new PaymentAnswer.BadSignature());
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
        }
        String orderNo = text(body, "orderNo");
        String paymentId = text(body, "paymentId");
        String paidAtText = text(body, "paidAt");
        if (orderNo == null || !ORDER_NO.matcher(orderNo).matches()) {
            return count(new PaymentAnswer.Invalid("orderNo must be the 24-character order number"));
        }
        if (paymentId == null || !PAYMENT_ID.matcher(paymentId).matches()) {
            return count(new PaymentAnswer.Invalid("paymentId must be 1..64 of A-Z a-z 0-9 . _ : -"));
        }
        if (!(body.get("amount") instanceof JsonNumber amountValue) || amountValue.bigDecimalValue().signum() < 0) {
            return count(new PaymentAnswer.Invalid("amount must be a non-negative number"));
        }
        BigDecimal amount = amountValue.bigDecimalValue();
        Instant paidAt;
        try {
            paidAt = Instant.parse(String.valueOf(paidAtText));
        } catch (DateTimeParseException e) {
            return count(new PaymentAnswer.Invalid("paidAt must be an ISO-8601 instant"));
        }
        Instant now = clock.instant();
        PaymentResult result = ledger.pay(orderNo, paymentId, paidAt, now);
        PaymentAnswer answer = switch (result) {
            case PaymentResult.Paid paid -> new PaymentAnswer.Accepted(orderNo, paymentId, false);
            case PaymentResult.AlreadyPaid already -> paymentId.equals(already.paymentId())
                    ? new PaymentAnswer.Accepted(orderNo, paymentId, true)
                    : new PaymentAnswer.PaidByAnother(orderNo, already.paymentId());
            case PaymentResult.Expired expired -> new PaymentAnswer.Expired(orderNo);
            case PaymentResult.UnknownOrder unknown -> new PaymentAnswer.UnknownOrder(orderNo);
        };
        String outcome = switch (answer) {
            // a repeat too: the status change and this row are two statements (the ledger's CAS is
            // ordering's), so a crash between them leaves the row to the payment side's retry, which
            // writes it; the insert keeps the first row of a payment id
            case PaymentAnswer.Accepted a -> "PAID";
            case PaymentAnswer.Expired e -> "ORDER_EXPIRED";
            case PaymentAnswer.PaidByAnother p -> "DUPLICATE";
            default -> null;
        };
        if (outcome != null) {
            rows.recordPayment(paymentId, orderNo, amount, paidAt, outcome, now);
        }
        return count(answer);
    }

    private PaymentAnswer count(PaymentAnswer answer) {
        metrics.counter("seckill.payments", new Tag("outcome", answer.getClass().getSimpleName().toLowerCase())).inc();
        return answer;
    }

    private static String text(JsonObject body, String field) {
        return body.get(field) instanceof JsonString s ? s.getString() : null;
    }
}
