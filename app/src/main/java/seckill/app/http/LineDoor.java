package seckill.app.http;

import java.time.Duration;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.admission.api.Admission;
import seckill.admission.api.AdmissionDecision;
import seckill.admission.api.PurchaseAttempt;
import seckill.admission.api.SaleWindow;
import seckill.ledger.api.catalogue.Activity;
import seckill.queue.api.JoinLine;
import seckill.queue.api.LineUnavailable;
import seckill.queue.api.Place;
import seckill.queue.api.PlaceState;

/**
 * A buyer joining the waiting line at the door (issue #33): behind the same admission as a purchase (halt,
 * blocklists, the captcha-backed token once the sale started), then given their place; joining again gives the
 * same place. One rule for both doors: {@code POST …/queue} (the place as JSON) and {@code POST …/queue/events}
 * (the place as the first event of the stream that follows it, so a buyer needs one request, not two).
 */
@ApplicationScoped
class LineDoor {

    private static final Logger LOG = Logger.getLogger(LineDoor.class.getName());

    private final Admission admission;
    private final JoinLine joining;
    private final ClientAddress clientAddress;

    @Inject
    LineDoor(Admission admission, JoinLine joining, ClientAddress clientAddress) {
        this.admission = admission;
        this.joining = joining;
        this.clientAddress = clientAddress;
    }

    /** For CDI's proxy. */
    LineDoor() {
        this(null, null, null);
    }

    /**
     * The buyer's place, or the {@link Problem} that refuses them: admission's refusal, {@code 410 SOLD_OUT}
     * when the line is closed and they hold no place in it, {@code 503 QUEUE_UNAVAILABLE} when Redis does not
     * answer.
     */
    Place join(ServerRequest request, Activity activity, long buyer) {
        Optional<String> token = request.headers().first(HeaderNames.create(PurchaseAnswers.TOKEN_HEADER));
        String forwardedFor = request.headers().first(HeaderNames.create("X-Forwarded-For")).orElse(null);
        SaleWindow window = new SaleWindow(activity.startsAt(), activity.endsAt());
        AdmissionDecision decision = admission.admitToLine(new PurchaseAttempt(activity.id(), 0, buyer,
                clientAddress.of(request, forwardedFor), window, token));
        if (!(decision instanceof AdmissionDecision.Admitted)) {
            throw PurchaseAnswers.refusal(decision, window);
        }
        Place place = unavailableAsProblem(() -> joining.join(activity.id(), buyer, QueueResource.lineWindow(activity)));
        if (place.state() == PlaceState.SOLD_OUT && place.place() == 0) {
            throw new Problem(410, "SOLD_OUT", "Sold out", "Every unit is gone; the line is closed. It opens again "
                    + "if units come back.");
        }
        return place;
    }

    static Place unavailableAsProblem(java.util.function.Supplier<Place> call) {
        try {
            return call.get();
        } catch (LineUnavailable e) {
            LOG.log(Level.WARNING, "waiting line unavailable", e);
            throw new Problem(503, "QUEUE_UNAVAILABLE", "Temporarily unavailable", "The waiting line does not answer "
                    + "right now; ask again (joining again keeps your place).", Duration.ofSeconds(1));
        }
    }
}
