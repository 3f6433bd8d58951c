package seckill.ledger.sql;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * DATETIME columns hold UTC wall time. Values are passed as text with milliseconds: a
 * {@link LocalDateTime} would be shifted by no zone, but mysql-connector-j drops its fraction when
 * the server is MariaDB (which announces itself as 5.5.5), and payment windows are short.
 */
public final class UtcTime {

    private UtcTime() {
    }

    private static final java.time.format.DateTimeFormatter TEXT =
            java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

    public static String column(Instant instant) {
        return TEXT.format(instant);
    }

    public static Instant instant(Object column) {
        if (column instanceof LocalDateTime local) {
            return local.toInstant(ZoneOffset.UTC);
        }
        if (column instanceof String text) {
            return LocalDateTime.parse(text.replace(' ', 'T')).toInstant(ZoneOffset.UTC);
        }
        if (column instanceof Timestamp timestamp) {
            return timestamp.toLocalDateTime().toInstant(ZoneOffset.UTC);
        }
        throw new IllegalArgumentException("not a DATETIME value: " + column);
    }
}
