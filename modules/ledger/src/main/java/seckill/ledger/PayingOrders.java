package seckill.ledger;

import java.time.Instant;

import io.helidon.dbclient.DbClient;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
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

    private final DbClient db;

    @Inject
    PayingOrders(DbClient db) {
        this.db = db;
    }

    private LedgerRows rows;

    @PostConstruct
    void init() {
        rows = new LedgerRows(db);
    }

    @Override
    public PaymentResult pay(Payment payment, Instant now) {
        return rows.pay(payment, now);
    }
}
