package seckill.app.http;

import java.io.StringWriter;
import java.time.Duration;

import jakarta.json.stream.JsonGenerator;
import seckill.admission.api.AdmissionDecision;
import seckill.admission.api.SaleWindow;
import seckill.app.sale.PurchaseOutcome;

/**
 * A purchase outcome as HTTP: a reservation is {@code 202} (new) or {@code 200} (the same one again)
 * with its {@code Location}; everything else is a problem+json {@link Problem} with a stable code,
 * and {@code Retry-After} wherever a retry can succeed. The purchase tables of docs/api.md list them.
 */
final class PurchaseAnswers {

    static final String TOKEN_HEADER = "X-Purchase-Token";
    static final String PASS_HEADER = "X-Queue-Pass";

    private PurchaseAnswers() {
    }

    /** A reservation as HTTP: {@code 202} when new, {@code 200} when the buyer already held it. */
    record Accepted(int status, String reservationId, String state) {

        String location() {
            return "/api/v1/reservations/" + reservationId;
        }

        String json() {
            // written straight to text, as Problem does (no JsonObject built just to be printed)
            StringWriter text = new StringWriter(96);
            try (JsonGenerator body = Jsons.PROVIDER.createGenerator(text)) {
                body.writeStartObject().write("reservationId", reservationId).write("status", state).writeEnd();
            }
            return text.toString();
        }
    }

    /** The answer for a reservation, or throws the problem for anything else. */
    static Accepted of(PurchaseOutcome outcome) {
        return switch (outcome) {
            case PurchaseOutcome.Reserved reserved -> accepted(202, reserved.id().toString(), "QUEUED");
            case PurchaseOutcome.AlreadyReserved already -> accepted(200, already.id().toString(), "ALREADY_RESERVED");
            case PurchaseOutcome.UnknownActivity unknown -> throw RehearsalGate.notFound(unknown.activityId());
            case PurchaseOutcome.UnknownSku unknown -> throw new Problem(404, "SKU_NOT_FOUND", "Not found",
                    "Activity " + unknown.activityId() + " does not sell SKU " + unknown.skuId() + ".");
            case PurchaseOutcome.OverBuyerLimit over -> throw new Problem(400, "INVALID_QUANTITY", "Invalid quantity",
                    "quantity must be between 1 and " + over.perUserLimit() + " for this SKU.")
                    .with("perUserLimit", over.perUserLimit());
            case PurchaseOutcome.NotAdmitted refused -> throw refusal(refused.refusal(), refused.window());
            case PurchaseOutcome.PassRequired required -> throw passRequired(required);
            case PurchaseOutcome.SoldOut soldOut -> throw soldOut(soldOut.skuId());
            case PurchaseOutcome.InsufficientStock insufficient -> throw new Problem(409, "INSUFFICIENT_STOCK",
                    "Insufficient stock", "Only " + insufficient.remaining() + " unit(s) left; ask for fewer.")
                    .with("remaining", insufficient.remaining());
            case PurchaseOutcome.NotReady notReady -> throw new Problem(503, "NOT_READY", "Not ready",
                    "This SKU's stock is not loaded yet.", Duration.ofSeconds(5));
            case PurchaseOutcome.InProgress inProgress -> throw new Problem(409, "PURCHASE_IN_PROGRESS",
                    "Purchase in progress", "Another click of yours is being served right now; ask again to get its "
                    + "reservation.", Duration.ofSeconds(1));
            case PurchaseOutcome.Busy busy -> throw new Problem(503, "BUSY", "Busy",
                    "This instance is at capacity; nothing was reserved. Retry shortly.", Duration.ofSeconds(1));
            case PurchaseOutcome.PassNotRecorded unrecorded -> throw new Problem(503, "BUSY", "Busy",
                    "Your turn could not be recorded safely in the waiting line just now; nothing was reserved. Retry"
                            + " shortly (your pass is still good).", Duration.ofSeconds(1));
            case PurchaseOutcome.HaltedInDoubt halted -> throw new Problem(503, "HALTED", "Sales halted",
                    "Sales are paused while the reservation store does not answer. If this attempt reached it before it"
                            + " stopped answering, your reservation exists: retrying returns it, never a second one"
                            + " (once the SKU is sold out, the retry's 410 links to your reservations instead).",
                    Duration.ofSeconds(2));
            case PurchaseOutcome.Unreadable unreadable -> throw new Problem(500, "INTERNAL", "Internal error",
                    "Something went wrong on our side.");
        };
    }

    /**
     * {@code 403 QUEUE_PASS_REQUIRED}: the queue is on and the purchase shows no valid pass. 403 (not 428,
     * whose meaning is a missing conditional header) like TOKEN_INVALID: the buyer is not allowed yet; the
     * answer says where to join ({@code queue}, and a {@code Link} rel="queue").
     */
    private static Problem passRequired(PurchaseOutcome.PassRequired required) {
        String queue = "/api/v1/activities/" + required.activityId() + "/queue";
        String why = switch (required.reason()) {
            case "EXPIRED" -> "Your pass expired; join the line again at ";
            case "MISSING" -> "Purchases go through the waiting line; join it at ";
            case "USED" -> "This pass bought already (a turn in the line buys once); your reservations are at "
                    + "/api/v1/activities/" + required.activityId() + "/reservations; the line is at ";
            default -> "This pass is not valid for you here; join the line at ";
        };
        return new Problem(403, "QUEUE_PASS_REQUIRED", "Queue pass required",
                why + queue + " and buy with the pass (" + PASS_HEADER + ") you get when it is your turn.")
                .with("queue", queue).with("reason", required.reason())
                .header("Link", "<" + queue + ">; rel=\"queue\"");
    }

    static Problem refusal(AdmissionDecision decision, SaleWindow window) {
        return switch (decision) {
            case AdmissionDecision.NotStarted notStarted -> new Problem(409, "NOT_STARTED", "Not started",
                    "The sale starts at " + window.startsAt() + ".", Duration.ofSeconds(notStarted.secondsUntilStart()))
                    .with("startsAt", window.startsAt().toString());
            case AdmissionDecision.Ended ended -> new Problem(409, "ENDED", "Ended",
                    "The sale ended at " + window.endsAt() + ".");
            case AdmissionDecision.SoldOut soldOut -> new Problem(410, "SOLD_OUT", "Sold out", "The SKU is sold out.");
            case AdmissionDecision.Halted halted -> new Problem(503, "HALTED", "Sales halted",
                    "Sales are paused (" + halted.reason().words() + "); nothing was reserved. Retry later.",
                    Duration.ofSeconds(halted.retryAfterSeconds()));
            case AdmissionDecision.Throttled throttled -> new Problem(429, "THROTTLED", "Too many attempts",
                    "BUYER".equals(throttled.limit())
                            ? "You are clicking faster than " + throttled.buyerLimit() + " attempt(s) per window; retry in "
                            + throttled.retryAfterSeconds() + " s. Your place is not lost: nothing was sold to anyone for this."
                            : "You are in the queue: the sale admits a limited number of attempts per second; retry in "
                            + throttled.retryAfterSeconds() + " s.",
                    Duration.ofSeconds(throttled.retryAfterSeconds()))
                    .with("limit", throttled.limit())
                    .header("X-RateLimit-Limit", Long.toString(throttled.buyerLimit()))
                    .header("X-RateLimit-Remaining", Long.toString(throttled.buyerRemaining()))
                    .header("X-RateLimit-Reset", Long.toString(throttled.resetSeconds()));
            // which check failed (expired, signed by another key, another buyer's...) would tell a forger
            // how close it came: the client learns only that the token is not valid, and PurchaseRoute
            // logs and counts the reason for operators
            case AdmissionDecision.TokenInvalid invalid -> new Problem(403, "TOKEN_INVALID", "Purchase token invalid",
                    "Send a valid purchase token in " + TOKEN_HEADER + " (solve a challenge at .../challenges, then "
                            + "POST .../tokens).");
            case AdmissionDecision.Blocked blocked -> new Problem(403, "BLOCKED", "Blocked",
                    "This " + blocked.what() + " may not take part in the sale.");
            case AdmissionDecision.Admitted admitted -> throw new IllegalStateException("an admitted attempt is no refusal");
            case AdmissionDecision.InDoubt inDoubt -> throw new IllegalStateException("doubt is the purchase's to decide");
        };
    }

    private static Problem soldOut(long skuId) {
        return new Problem(410, "SOLD_OUT", "Sold out", "SKU " + skuId + " is sold out.");
    }

    private static Accepted accepted(int status, String reservationId, String state) {
        return new Accepted(status, reservationId, state);
    }
}
