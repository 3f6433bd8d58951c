package seckill.drill.ramp.rules;

/**
 * Where a layer is judged to give way (the ramp's options, documented in docs/operations.md):
 * a layer <em>sheds</em> when its refusals in a step exceed {@code shedPercent} of the requests
 * sent in that step; it <em>saturates</em> when a figure of its own passes its bound: the reservation
 * path when the p99 of its 202 answers exceeds {@code p99Millis} or the mean Redis script call
 * ({@code EVALSHA}) exceeds {@code scriptMicros}; the stream when its backlog at the step's end exceeds
 * {@code backlogEntries} or orders are written more than {@code orderingShortfallPercent} slower than
 * reservations are made (over at least {@code minReservations} reservations); the database when the
 * mean ordering transaction exceeds {@code databaseWaitMillis}.
 */
public record Thresholds(double shedPercent, double p99Millis, double scriptMicros, long backlogEntries,
                         double orderingShortfallPercent, long minReservations, double databaseWaitMillis) {

    /** The defaults of {@code drill rehearse}. */
    public static final Thresholds DEFAULTS = new Thresholds(1.0, 250, 1_000, 1_000, 50, 50, 100);
}
