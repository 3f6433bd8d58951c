package seckill.reservation.api;

import java.util.List;

/**
 * One stock bucket as Redis holds it at one instant, read atomically for reconciliation: the
 * units left, the units refills have put back, the position of the stream's last event, and the
 * events not yet acknowledged (pending or never delivered) with their units. Every event at or
 * before {@code lastEvent} that is not listed here was acknowledged, so its outcome is already in
 * the ledger. A backlog of any size is listed: it is read in pages, each entry judged once.
 */
public sealed interface BucketSnapshot {

    /** The figures; {@code lostEvents} counts entries pending in the group but gone from the stream. */
    record Taken(long remaining, long refilledUnits, long lastEvent, long unsettledUnits, long lostEvents,
                 List<String> unsettledReservations) implements BucketSnapshot {
    }

    /** The bucket's stock key is not in Redis (never preheated, lost, or expired). */
    record NotPreheated() implements BucketSnapshot {
    }
}
