package seckill.settlement.api;

/** Where the settlement module's Liquibase changelog lives on the class path. */
public final class SettlementSchema {

    public static final String CHANGELOG = "seckill/settlement/changelog.sql";

    private SettlementSchema() {
    }
}
