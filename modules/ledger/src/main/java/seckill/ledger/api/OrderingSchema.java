package seckill.ledger.api;

/** Where the ordering module's Liquibase changelog lives on the class path. */
public final class OrderingSchema {

    public static final String CHANGELOG = "seckill/ordering/changelog.sql";

    private OrderingSchema() {
    }
}
