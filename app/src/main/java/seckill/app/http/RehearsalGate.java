package seckill.app.http;

import java.util.function.LongSupplier;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import jakarta.inject.Inject;
import seckill.app.identity.RehearsalMarks;
import seckill.app.sale.HotPathSingleton;
import seckill.ledger.api.catalogue.Activity;
import seckill.ledger.api.catalogue.ActivityCatalog;
import seckill.redis.World;

/**
 * The edge's rehearsal mark asked by every buyer route that names an activity (docs/rehearsal.md "The edge's
 * signed mark"), before anything reads a key or the catalogue: a rehearsal's activity without a valid mark for
 * it and the buyer is answered as an activity that does not exist ({@code 404 ACTIVITY_NOT_FOUND}, or the
 * route's own answer for one: an empty list, {@code RESERVATION_NOT_FOUND}); a real activity with a mark,
 * valid or not, is {@code 403 REHEARSAL_MARK_ON_REAL_ACTIVITY} with nothing read or written. Admin routes
 * take no mark.
 */
@HotPathSingleton
class RehearsalGate {

    private static final HeaderName MARK = HeaderNames.create(RehearsalMarks.HEADER);

    private final RehearsalMarks marks;
    private final ActivityCatalog catalog;

    @Inject
    RehearsalGate(RehearsalMarks marks, ActivityCatalog catalog) {
        this.marks = marks;
        this.catalog = catalog;
    }

    /** For CDI's proxy. */
    RehearsalGate() {
        this.marks = null;
        this.catalog = null;
    }

    /**
     * The activity a buyer route names in its path: refused by the mark first (a {@code 403} or a {@code 404}
     * problem), then looked up in the catalogue ({@code 404} when it does not exist). {@code buyer} is asked
     * only for a marked request naming a rehearsal's id.
     */
    Activity activity(ServerRequest request, String activityIdText, LongSupplier buyer) {
        long activityId = Buyer.pathId(activityIdText, "activity");
        check(request, activityId, buyer);
        return catalog.find(activityId).orElseThrow(() -> notFound(activityId));
    }

    /** Throws the problem the mark calls for: {@code 403} for a mark on a real activity, {@code 404} for a hidden rehearsal. */
    void check(ServerRequest request, long activityId, LongSupplier buyer) {
        switch (judge(request, activityId, buyer)) {
            case MARK_ON_REAL -> throw markOnReal(activityId);
            case HIDDEN -> throw notFound(activityId);
            case REAL, REHEARSAL -> {
            }
        }
    }

    /** What the request's mark makes of the activity it names. */
    RehearsalMarks.Verdict judge(ServerRequest request, long activityId, LongSupplier buyer) {
        String mark = markOf(request);
        // the buyer matters only to a mark for a rehearsal: the purchase path of a real sale asks nothing more
        boolean signedForBuyer = mark != null && World.of(activityId) == World.REHEARSAL;
        return marks.judge(activityId, signedForBuyer ? buyer.getAsLong() : 0, mark);
    }

    /**
     * The request's mark: every value of the header is read, not the first only (an empty first header would hide
     * a mark after it from the real activity's {@code 403}); blank values are no mark (the shipped edge strips by
     * setting the header empty); more than one non-blank value is a mark no edge sends, so it is kept as a mark
     * that never verifies: a real activity refuses it, a rehearsal is hidden from it.
     */
    private static String markOf(ServerRequest request) {
        if (!request.headers().contains(MARK)) {
            return null;
        }
        String mark = null;
        for (String value : request.headers().all(MARK, java.util.List::of)) {
            if (!value.isBlank()) {
                if (mark != null) {
                    return "duplicate";
                }
                mark = value;
            }
        }
        return mark;
    }

    /**
     * What a route answers for an activity that does not exist, and a buyer route for a rehearsal's without its mark:
     * one problem built in one place, so a hidden rehearsal is answered exactly as an unknown activity.
     */
    static Problem notFound(long activityId) {
        return new Problem(404, "ACTIVITY_NOT_FOUND", "Not found", "No activity " + activityId + ".");
    }

    static Problem markOnReal(long activityId) {
        return new Problem(403, "REHEARSAL_MARK_ON_REAL_ACTIVITY", "Rehearsal mark on a real activity",
                "Activity " + activityId + " is a real sale; a request marked " + RehearsalMarks.HEADER
                        + " never reaches one. Nothing was done.");
    }
}
