package seckill.ledger.api;

/**
 * Where the ledger module's Liquibase changelog lives on the class path. The path is the one it was
 * first deployed under (when the module was called ordering): Liquibase records it with every
 * changeset it applied, so moving it would make every deployed database run the changelog again.
 */
public final class LedgerSchema {

    public static final String CHANGELOG = "seckill/ordering/changelog.sql";

    private LedgerSchema() {
    }
}
