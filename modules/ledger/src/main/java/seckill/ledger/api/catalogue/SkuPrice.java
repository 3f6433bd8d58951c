package seckill.ledger.api.catalogue;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Currency;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A SKU's flash price, or an order's price: an exact decimal amount in an ISO 4217 currency. The
 * amount is positive, has no more decimals than the currency's minor units (JPY none, EUR two) and
 * never more than two (the ledger's DECIMAL(14, 2)), and at most {@link #MAX_INTEGER_DIGITS} digits
 * before the point, so a buyer's limit of units still fits the payment's column. Kept at scale 2.
 */
public record SkuPrice(BigDecimal amount, String currency) {

    public static final int MAX_INTEGER_DIGITS = 9;
    /** Decimals the ledger keeps, whatever the currency. */
    public static final int SCALE = 2;
    private static final int MAX_PRECISION = 32;
    private static final Pattern CURRENCY = Pattern.compile("[A-Z]{3}");

    public SkuPrice {
        Optional<String> problem = currencyProblem(currency);
        if (problem.isEmpty()) {
            problem = amountProblem(amount, currency);
        }
        if (problem.isPresent()) {
            throw new IllegalArgumentException("invalid price: " + problem.get());
        }
        amount = amount.setScale(SCALE, RoundingMode.UNNECESSARY);
    }

    /** What is wrong with the currency, if anything. */
    public static Optional<String> currencyProblem(String currency) {
        return currency != null && CURRENCY.matcher(currency).matches() ? Optional.empty()
                : Optional.of("must be an ISO 4217 code of three capital letters such as EUR");
    }

    /** What is wrong with the amount in this (well-formed) currency, if anything. */
    public static Optional<String> amountProblem(BigDecimal amount, String currency) {
        if (amount == null) {
            return Optional.of("must be a decimal amount such as \"19.99\"");
        }
        // precision and scale first: both are fields, so 1e999999 costs nothing here
        if (amount.precision() > MAX_PRECISION || amount.scale() < -MAX_PRECISION || amount.scale() > MAX_PRECISION
                || (long) amount.precision() - amount.scale() > MAX_INTEGER_DIGITS) {
            return Optional.of("must be at most " + MAX_INTEGER_DIGITS + " digits before the point");
        }
        if (amount.signum() <= 0) {
            return Optional.of("must be positive");
        }
        int decimals = minorUnits(currency);
        if (Math.max(0, amount.stripTrailingZeros().scale()) > decimals) {
            return Optional.of("must have at most " + decimals + " decimal" + (decimals == 1 ? "" : "s")
                    + (currency == null ? "" : " in " + currency));
        }
        return Optional.empty();
    }

    /** The currency's minor units as ISO 4217 has them, never more than the ledger keeps. */
    static int minorUnits(String currency) {
        if (currency == null || currencyProblem(currency).isPresent()) {
            return SCALE;
        }
        try {
            int digits = Currency.getInstance(currency).getDefaultFractionDigits();
            return digits < 0 ? SCALE : Math.min(digits, SCALE);
        } catch (IllegalArgumentException unknown) {
            // three letters the JDK does not list: held to the ledger's scale
            return SCALE;
        }
    }

    /** The amount {@code quantity} units cost, at scale 2 (in this currency). */
    public BigDecimal totalFor(int quantity) {
        return amount.multiply(BigDecimal.valueOf(quantity));
    }

    /** The amount as written in JSON and shown: plain digits at scale 2 ({@code "19.90"}). */
    public String amountText() {
        return amount.toPlainString();
    }
}
