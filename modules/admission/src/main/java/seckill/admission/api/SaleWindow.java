package seckill.admission.api;

import java.time.Duration;
import java.time.Instant;

/**
 * When an activity sells: from {@code startsAt} (inclusive) to {@code endsAt} (exclusive). The one
 * place that says whether a moment is before, inside or after the sale, for purchases, challenges
 * and tokens alike.
 */
public record SaleWindow(Instant startsAt, Instant endsAt) {

    public boolean notStartedAt(Instant now) {
        return now.isBefore(startsAt);
    }

    public boolean endedAt(Instant now) {
        return !now.isBefore(endsAt);
    }

    /** Whole seconds until the start, at least 1: what a {@code Retry-After} should say before it opens. */
    public long secondsUntilStart(Instant now) {
        return Math.max(1, Duration.between(now, startsAt).toSeconds());
    }
}
