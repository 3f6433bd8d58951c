package seckill.ledger.sql;

import io.helidon.dbclient.DbTransaction;

/** What every ledger transaction does when it fails: roll back, keeping the first failure as the cause. */
final class Transactions {

    /** A deadlock victim's transaction is run again at most this many times more. */
    static final int DEADLOCK_RETRIES = 3;

    private Transactions() {
    }

    /**
     * Runs {@code transaction} and runs it again when InnoDB chose it as a deadlock's victim (error
     * 1213, SQLState 40001): the victim is rolled back whole, so a re-run starts clean, and its
     * compare-and-sets decide again ("try restarting transaction", as the server says). Payments and the
     * timeout sweep of one order meet this way when several instances sweep at once.
     */
    static <T> T retryingDeadlocks(java.util.function.Supplier<T> transaction) {
        for (int attempt = 0; ; attempt++) {
            try {
                return transaction.get();
            } catch (RuntimeException e) {
                if (attempt >= DEADLOCK_RETRIES || !deadlock(e)) {
                    throw e;
                }
            }
        }
    }

    static boolean deadlock(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof java.sql.SQLException sql
                    && (sql.getErrorCode() == 1213 || "40001".equals(sql.getSQLState()))) {
                return true;
            }
        }
        return false;
    }

    static void rollbackQuietly(DbTransaction tx, RuntimeException cause) {
        try {
            tx.rollback();
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
        }
    }
}
