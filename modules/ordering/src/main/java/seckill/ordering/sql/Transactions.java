package seckill.ordering.sql;

import io.helidon.dbclient.DbTransaction;

/** What every ledger transaction does when it fails: roll back, keeping the first failure as the cause. */
final class Transactions {

    private Transactions() {
    }

    static void rollbackQuietly(DbTransaction tx, RuntimeException cause) {
        try {
            tx.rollback();
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
        }
    }
}
