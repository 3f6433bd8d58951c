package seckill.app.http;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import seckill.settlement.api.PaymentAnswer;
import seckill.settlement.api.PaymentCallbacks;

/**
 * The payment side's callback. The body is taken as raw bytes because the signature covers exactly
 * those bytes; any media type is accepted for the same reason. {@code X-Signature} carries the signed
 * timestamp and the HMAC ({@code t=<unix seconds>,v1=<hex>}, docs/payments.md).
 */
@Path("/api/v1/payments/callback")
@ApplicationScoped
public class PaymentsResource {

    private final PaymentCallbacks callbacks;

    @Inject
    PaymentsResource(PaymentCallbacks callbacks) {
        this.callbacks = callbacks;
    }

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    public Response callback(@HeaderParam("X-Signature") String signature, byte[] body) {
        PaymentAnswer answer = callbacks.handle(body, signature);
        return switch (answer) {
            case PaymentAnswer.Accepted accepted -> Response.ok(Jsons.PROVIDER.createObjectBuilder()
                    .add("orderNo", accepted.orderNo())
                    .add("paymentId", accepted.paymentId())
                    .add("status", "PAID")
                    .build().toString()).build();
            case PaymentAnswer.BadSignature bad -> throw new Problem(401, "BAD_SIGNATURE", "Bad signature",
                    "X-Signature must be t=<unix seconds>,v1=<hex HMAC-SHA256 of \"<t>.\" + the raw body with the"
                            + " shared payment key>.");
            // a retry signed anew is accepted, so the payment side is told it may retry at once
            case PaymentAnswer.StaleSignature stale -> throw new Problem(401, "STALE_SIGNATURE", "Stale signature",
                    "The signed time t is more than " + stale.window().toSeconds() + " s from this service's clock:"
                            + " sign each attempt when it is sent.", Duration.ZERO)
                    .with("windowSeconds", stale.window().toSeconds());
            case PaymentAnswer.AmountMismatch mismatch -> throw new Problem(409, "AMOUNT_MISMATCH",
                    "Amount mismatch", mismatch.detail() + "; nothing was recorded, refund this payment.")
                    .with("orderNo", mismatch.orderNo());
            case PaymentAnswer.PaymentIdReused reused -> throw new Problem(409, "PAYMENT_ID_REUSED",
                    "Payment id reused", "Payment " + reused.paymentId() + " is recorded for another order; a"
                            + " payment id settles one order. Nothing was changed.")
                    .with("orderNo", reused.orderNo()).with("paymentId", reused.paymentId());
            case PaymentAnswer.Invalid invalid -> throw new Problem(400, "INVALID_REQUEST", "Invalid request",
                    invalid.detail());
            case PaymentAnswer.Expired expired -> throw new Problem(409, "ORDER_EXPIRED", "Order expired",
                    "Order " + expired.orderNo() + " timed out before this payment; refund it.")
                    .with("orderNo", expired.orderNo());
            case PaymentAnswer.PaidByAnother other -> throw new Problem(409, "ALREADY_PAID", "Already paid",
                    "Order " + other.orderNo() + " was paid by payment " + other.paymentId() + "; refund this one.")
                    .with("orderNo", other.orderNo()).with("paidBy", other.paymentId());
            case PaymentAnswer.UnknownOrder unknown -> throw new Problem(404, "ORDER_NOT_FOUND", "Not found",
                    "No order " + unknown.orderNo() + ".");
            case PaymentAnswer.NotConfigured none -> throw new Problem(503, "PAYMENTS_NOT_CONFIGURED",
                    "Payments not configured", none.missing() + " is not set on this service.",
                    Duration.ofSeconds(60));
        };
    }
}
