package seckill.system.architecture.probe.api;

import java.sql.SQLException;
import java.sql.SQLTransientException;

/** A made-up api class that only tells JDBC's exception types apart, as the ledger's LedgerUnavailable does: allowed. */
public final class ClassifiesSqlFailures {

    private ClassifiesSqlFailures() {
    }

    public static boolean transientFailure(Throwable failure) {
        return failure instanceof SQLTransientException
                || failure instanceof SQLException sql && "40001".equals(sql.getSQLState());
    }
}
