package seckill.settlement.rules;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.regex.Pattern;

/**
 * What a payment must be: exactly this amount in this currency: the order's recorded price times its
 * quantity, or for an order of a SKU without a price the configured one ({@code seckill.payment.price},
 * {@code .currency}). An amount is read as the exact
 * decimal the payment side wrote, and bounded before any arithmetic: {@code 1e999999} or a
 * five-thousand-digit number is refused here and never reaches SQL.
 */
public record Price(BigDecimal amount, String currency) {

    /** Digits before the point the ledger's DECIMAL(14, 2) holds. */
    public static final int MAX_INTEGER_DIGITS = 12;
    public static final int SCALE = 2;
    private static final int MAX_PRECISION = 32;
    private static final Pattern CURRENCY = Pattern.compile("[A-Z]{3}");

    /** How one reported amount and currency compare with the price. */
    public sealed interface Judgement {
    }

    /** The price, exactly; {@code amount} at the ledger's scale. */
    public record Matches(BigDecimal amount, String currency) implements Judgement {
    }

    /** Not an amount or currency at all (negative, zero, out of range, more than cents, not ISO 4217). */
    public record Malformed(String detail) implements Judgement {
    }

    /** A well-formed payment of another amount or currency: the payment side refunds it. */
    public record Mismatch(String detail) implements Judgement {
    }

    public Price {
        if (!(bounded(amount) && amount.signum() > 0)) {
            throw new IllegalArgumentException("a price must be positive, at most " + MAX_INTEGER_DIGITS
                    + " digits before the point and " + SCALE + " after it: " + amount);
        }
        if (currency == null || !CURRENCY.matcher(currency).matches()) {
            throw new IllegalArgumentException("a currency is three capital letters (ISO 4217): " + currency);
        }
        amount = amount.setScale(SCALE, RoundingMode.UNNECESSARY);
    }

    public Judgement judge(BigDecimal reported, String reportedCurrency) {
        if (reported == null || !bounded(reported)) {
            return new Malformed("amount must be a number with at most " + MAX_INTEGER_DIGITS
                    + " digits before the point and " + SCALE + " after it");
        }
        if (reported.signum() <= 0) {
            return new Malformed("amount must be positive");
        }
        if (reportedCurrency == null || !CURRENCY.matcher(reportedCurrency).matches()) {
            return new Malformed("currency must be three capital letters (ISO 4217)");
        }
        if (reported.compareTo(amount) != 0 || !reportedCurrency.equals(currency)) {
            return new Mismatch("the order's price is " + amount.toPlainString() + " " + currency + ", not "
                    + reported.toPlainString() + " " + reportedCurrency);
        }
        return new Matches(amount, currency);
    }

    /**
     * Within DECIMAL(14, 2) without rounding. Precision and scale are read first: they are fields, so
     * an exponent of a million costs nothing, and only a number of bounded digits is stripped.
     */
    private static boolean bounded(BigDecimal value) {
        if (value.precision() > MAX_PRECISION) {
            return false;
        }
        long integerDigits = (long) value.precision() - value.scale();
        if (integerDigits > MAX_INTEGER_DIGITS || value.scale() > MAX_PRECISION) {
            return false;
        }
        return value.stripTrailingZeros().scale() <= SCALE;
    }
}
