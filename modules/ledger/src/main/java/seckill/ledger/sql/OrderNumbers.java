package seckill.ledger.sql;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

import seckill.reservation.api.ReservationId;

/**
 * Order numbers: 24 digits, the UTC date of the reservation as yyDDD (year, day of year) followed by
 * the reservation's 19-digit sequence. Derived from the reservation alone, so a redelivered event
 * can never mint a second number. Two reservations of other buckets or SKUs can carry the same
 * sequence (two instances under one node id), and so the same number: the second order is numbered
 * from the ledger instead ({@link #fallback}), never refused for it.
 */
public final class OrderNumbers {

    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyDDD").withZone(ZoneOffset.UTC);

    private OrderNumbers() {
    }

    /** The digits after the day that no sequence starts with: a long's 19 digits start with at most 92. */
    static final String FALLBACK_MARK = "99";
    private static final long FALLBACK_LIMIT = 100_000_000_000_000_000L;

    /**
     * The number of an order whose derived number is taken: yyDDD of the reservation, {@code 99}, then
     * the ledger's own counter in 17 digits. Unique by construction: the counter is the ledger's
     * (a row of {@code seckill_order_number} committed with the order), and no derived number has
     * {@code 99} there, so it can equal neither another fallback nor a derived number.
     */
    public static String fallback(Instant reservedAt, long ledgerNumber) {
        if (ledgerNumber <= 0 || ledgerNumber >= FALLBACK_LIMIT) {
            throw new IllegalArgumentException("ledger order number out of range: " + ledgerNumber);
        }
        String counter = Long.toString(ledgerNumber);
        StringBuilder number = new StringBuilder(24).append(DAY.format(reservedAt)).append(FALLBACK_MARK);
        number.repeat('0', 17 - counter.length());
        return number.append(counter).toString();
    }

    public static String of(ReservationId id, Instant reservedAt) {
        // zero-padded by hand: String.format parses its pattern on every call, once per order
        if (id.sequence() < 0) {
            return DAY.format(reservedAt) + String.format("%019d", id.sequence());
        }
        String sequence = Long.toString(id.sequence());
        StringBuilder number = new StringBuilder(24).append(DAY.format(reservedAt));
        number.repeat('0', 19 - sequence.length());
        return number.append(sequence).toString();
    }
}
