package seckill.ordering.sql;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

import seckill.reservation.api.ReservationId;

/**
 * Order numbers: 24 digits, the UTC date of the reservation as yyDDD (year, day of year) followed by
 * the reservation's 19-digit sequence. Derived from the reservation alone, so a redelivered event
 * can never mint a second number.
 */
public final class OrderNumbers {

    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyDDD").withZone(ZoneOffset.UTC);

    private OrderNumbers() {
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
