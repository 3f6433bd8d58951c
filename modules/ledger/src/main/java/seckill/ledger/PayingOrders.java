package seckill.ledger;

import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.ledger.api.AmountDue;
import seckill.ledger.api.OrderPayments;
import seckill.ledger.api.Payment;
import seckill.ledger.api.PaymentResult;
import seckill.ledger.sql.LedgerRows;

/**
 * Pays an order: the compare-and-set from PENDING to PAID before the order's deadline by the
 * ledger's clock, with the payment's row, in one transaction ({@link LedgerRows#pay}).
 */
@ApplicationScoped
class PayingOrders implements OrderPayments {

    private final LedgerRows rows;

    @Inject
    PayingOrders(LedgerRows rows) {
        this.rows = rows;
    }

    @Override
    public PaymentResult pay(Payment payment, Instant now) {
        return rows.pay(payment, now);
    }

    @Override
    public AmountDue amountDue(String orderNo) {
        return rows.amountDue(orderNo);
    }
}
