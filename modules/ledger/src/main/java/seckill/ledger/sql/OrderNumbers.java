package seckill.ledger.sql;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

import seckill.redis.World;
import seckill.reservation.api.ReservationId;

/**
 * Order numbers: 24 digits, the UTC date of the reservation as yyDDD (year, day of year) followed by
 * the reservation's 19-digit sequence. Derived from the reservation alone, so a redelivered event
 * can never mint a second number. Two reservations of other buckets or SKUs can carry the same
 * sequence (two instances under one node id), and so the same number: the second order is numbered
 * from the ledger instead ({@link #fallback}), never refused for it.
 * <p>
 * A rehearsal's order (issue #34, docs/rehearsal.md) is numbered the same way with its first character
 * replaced by {@code R} ({@link #REHEARSAL_MARK}; the decade digit of the year goes): a payment, which
 * names only the order number, knows the ledger it is for from the number alone, and a number of the
 * shadow ledger can never equal a real one (its own fallback counter starts at 1 too).
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
    public static String fallback(World world, Instant reservedAt, long ledgerNumber) {
        return marked(world, fallback(reservedAt, ledgerNumber));
    }

    /** A real order's fallback number ({@link #fallback(World, Instant, long)}). */
    public static String fallback(Instant reservedAt, long ledgerNumber) {
        if (ledgerNumber <= 0 || ledgerNumber >= FALLBACK_LIMIT) {
            throw new IllegalArgumentException("ledger order number out of range: " + ledgerNumber);
        }
        String counter = Long.toString(ledgerNumber);
        StringBuilder number = new StringBuilder(24).append(DAY.format(reservedAt)).append(FALLBACK_MARK);
        number.repeat('0', 17 - counter.length());
        return number.append(counter).toString();
    }

    /** The first character of every rehearsal order's number, never of a real one's (a digit). */
    public static final char REHEARSAL_MARK = 'R';

    /** The world an order number belongs to, from the number alone. */
    public static World worldOf(String orderNo) {
        return !orderNo.isEmpty() && orderNo.charAt(0) == REHEARSAL_MARK ? World.REHEARSAL : World.REAL;
    }

    private static String marked(World world, String number) {
        return world == World.REHEARSAL ? REHEARSAL_MARK + number.substring(1) : number;
    }

    public static String of(ReservationId id, Instant reservedAt) {
        if (World.of(id.activityId()) == World.REHEARSAL) {
            return marked(World.REHEARSAL, digits(id, reservedAt));
        }
        return digits(id, reservedAt);
    }

    private static String digits(ReservationId id, Instant reservedAt) {
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
