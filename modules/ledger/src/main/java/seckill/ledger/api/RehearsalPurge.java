package seckill.ledger.api;

import java.time.Instant;

/**
 * The ledger's part of a rehearsal's purge (issue #34, docs/rehearsal.md "The purge"), in the shadow database
 * only: the rehearsal is ended first (its {@code ends_at} set to now), and once its keys are gone its rows go:
 * rejections of its reservations, order numbers, orders, stock log, failures, outbox, stock, the idempotency
 * record, the activity last (so a purge interrupted is finished by the next one). Settlement's rows (payments,
 * reconciliations) are settlement's to purge, before these.
 */
public interface RehearsalPurge {

    /**
     * Ends the rehearsal at {@code now} (an earlier end is kept).
     *
     * @return whether its activity row is still there
     * @throws IllegalArgumentException for a real activity id
     * @throws IllegalStateException    when no shadow ledger is configured
     */
    boolean end(long rehearsalId, Instant now);

    /**
     * Deletes every row of the rehearsal from the shadow database; idempotent.
     *
     * @return how many rows were deleted
     */
    long purgeRows(long rehearsalId);
}
