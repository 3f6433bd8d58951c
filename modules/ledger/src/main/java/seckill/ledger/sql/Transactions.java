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
     * timeout sweep of one order meet this way when several instances sweep at once; an ordering batch
     * and a dead letter of the same reservation, or another client's locks on a stock row, too. Only
     * when the victim loses every time is the deadlock thrown on (as {@code LedgerUnavailable}: the
     * worker backs off); a lock wait timeout (1205) is never run again here, it has waited long already.
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

    /**
     * A deadlock's victim by its error code, 1213. Not by SQLState 40001 alone: mysql-connector-j reports a
     * lock wait timeout (1205) with 40001 too, and that one is not run again. A driver that gives no code
     * (0) is taken at its state.
     */
    static boolean deadlock(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof java.sql.SQLException sql && (sql.getErrorCode() == 1213
                    || sql.getErrorCode() == 0 && "40001".equals(sql.getSQLState()))) {
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
