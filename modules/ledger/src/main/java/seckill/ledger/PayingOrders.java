package seckill.ledger;

import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.ledger.api.AmountDue;
import seckill.ledger.api.OrderPayments;
import seckill.ledger.api.Payment;
import seckill.ledger.api.PaymentResult;
import seckill.ledger.sql.LedgerRows;
import seckill.ledger.sql.OrderNumbers;

/**
 * Pays an order: the compare-and-set from PENDING to PAID before the order's deadline by the
 * ledger's clock, with the payment's row, in one transaction ({@link LedgerRows#pay}), in the ledger of
 * the order number's world ({@link OrderNumbers#worldOf}: a rehearsal's order is paid in the shadow ledger).
 */
@ApplicationScoped
class PayingOrders implements OrderPayments {

    private final LedgersByWorld.PerWorld<LedgerRows> rows;

    @Inject
    PayingOrders(LedgersByWorld ledgers) {
        this.rows = ledgers.each(LedgerRows::new);
    }

    @Override
    public PaymentResult pay(Payment payment, Instant now) {
        return rows.of(OrderNumbers.worldOf(payment.orderNo())).map(r -> r.pay(payment, now))
                .orElseGet(() -> new PaymentResult.UnknownOrder(payment.orderNo()));
    }

    @Override
    public AmountDue amountDue(String orderNo) {
        return rows.of(OrderNumbers.worldOf(orderNo)).map(r -> r.amountDue(orderNo)).orElseGet(AmountDue.NoOrder::new);
    }
}
