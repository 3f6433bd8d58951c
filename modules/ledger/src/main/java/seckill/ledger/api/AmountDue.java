package seckill.ledger.api;

import java.math.BigDecimal;

/** What a payment of an order must be, as the ledger recorded it when it wrote the order (issue #33). */
public sealed interface AmountDue {

    /** The order's unit price times its quantity (scale 2): a payment of anything else is refused. */
    record Priced(BigDecimal amount, String currency) implements AmountDue {
    }

    /** The order's SKU has no price (an activity created without one): the configured price applies. */
    record NotPriced() implements AmountDue {
    }

    /** No order with that number. */
    record NoOrder() implements AmountDue {
    }
}
