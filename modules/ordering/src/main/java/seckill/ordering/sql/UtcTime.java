package seckill.ordering.sql;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * DATETIME columns hold UTC wall time. Passing and reading {@link LocalDateTime} keeps the JDBC
 * driver from shifting values by the JVM's or the session's zone.
 */
public final class UtcTime {

    private UtcTime() {
    }

    public static LocalDateTime column(Instant instant) {
        return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    public static Instant instant(Object column) {
        if (column instanceof LocalDateTime local) {
            return local.toInstant(ZoneOffset.UTC);
        }
        if (column instanceof Timestamp timestamp) {
            return timestamp.toLocalDateTime().toInstant(ZoneOffset.UTC);
        }
        throw new IllegalArgumentException("not a DATETIME value: " + column);
    }
}
