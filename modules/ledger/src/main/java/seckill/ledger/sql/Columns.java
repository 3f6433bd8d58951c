package seckill.ledger.sql;

import java.math.BigDecimal;
import java.util.Optional;

import io.helidon.dbclient.DbRow;
import seckill.ledger.api.catalogue.SkuPrice;

/**
 * Reads numeric and text columns whatever Java type the driver chose (BIGINT may arrive as Long or
 * BigInteger, TINYINT as Integer or Boolean); Helidon's mapper refuses such widening on its own.
 */
public final class Columns {

    private Columns() {
    }

    public static long longOf(DbRow row, String column) {
        Object value = row.column(column).get();
        if (value instanceof Number number) {
            return number.longValue();
        }
        if (value instanceof Boolean flag) {
            return flag ? 1 : 0;
        }
        throw new IllegalStateException("column " + column + " is not numeric: " + value);
    }

    public static int intOf(DbRow row, String column) {
        return Math.toIntExact(longOf(row, column));
    }

    /** Text of a NOT NULL column (Helidon refuses SQL NULL here; select nullable ones with COALESCE). */
    public static String textOf(DbRow row, String column) {
        return row.column(column).get().toString();
    }

    /** Text of a column selected as {@code COALESCE(..., '')}: empty for SQL NULL. */
    public static Optional<String> optionalTextOf(DbRow row, String column) {
        String text = textOf(row, column);
        return text.isEmpty() ? Optional.empty() : Optional.of(text);
    }

    /** A price selected as text ({@code COALESCE(CAST(amount AS CHAR), '')}, currency likewise); empty when NULL. */
    public static Optional<SkuPrice> priceOf(DbRow row, String amountColumn, String currencyColumn) {
        String amount = textOf(row, amountColumn);
        String currency = textOf(row, currencyColumn);
        return amount.isEmpty() || currency.isEmpty() ? Optional.empty()
                : Optional.of(new SkuPrice(new BigDecimal(amount), currency));
    }
}
