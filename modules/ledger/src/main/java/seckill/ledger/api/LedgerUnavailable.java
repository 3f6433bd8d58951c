package seckill.ledger.api;

import java.io.EOFException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Set;

/**
 * The ledger database could not answer: the connection was refused, reset or closed, the pool timed
 * out, a lock wait or deadlock rolled the transaction back (a deadlock's victim only after it was run
 * again at once a few times, by the ledger's writers), or the server is read-only. Nothing was
 * decided, so whatever was being settled stays pending and is tried again when the database is
 * back; such a failure never counts against a reservation. The HTTP edge answers it with 503 and
 * {@code Retry-After}.
 */
public final class LedgerUnavailable extends RuntimeException {

    /**
     * MySQL / MariaDB error codes that say "not now" rather than "never": lock wait timeout, deadlock,
     * read-only server, too many connections, server shutting down, connection killed, lost
     * connection, query interrupted or timed out.
     */
    private static final Set<Integer> TRANSIENT_CODES = Set.of(1205, 1213, 1290, 1836, 1792, 1040, 1053, 1927, 2002,
            2003, 2006, 2013, 1317, 3024, 1969, 1047, 1077, 1078, 1079, 1080, 1081, 1152, 1158, 1159, 1160, 1161);

    public LedgerUnavailable(Throwable cause) {
        super("ledger database unavailable: " + innermost(cause), cause);
    }

    /**
     * Whether a failure anywhere in its cause chain is the database being away or busy (see above),
     * as opposed to the ledger refusing what it was given (a constraint, bad data).
     */
    public static boolean isOutage(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof LedgerUnavailable) {
                return true;
            }
            if (t instanceof SQLException sql && isOutage(sql)) {
                return true;
            }
            if (t instanceof ConnectException || t instanceof SocketException || t instanceof SocketTimeoutException
                    || t instanceof EOFException) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    private static boolean isOutage(SQLException sql) {
        if (sql instanceof SQLTransientException || sql instanceof SQLRecoverableException
                || sql instanceof java.sql.SQLNonTransientConnectionException) {
            // connection failures, pool timeouts (Hikari's SQLTransientConnectionException), deadlock rollbacks
            return true;
        }
        String state = sql.getSQLState();
        if (state != null && (state.startsWith("08") || state.equals("40001") || state.equals("HYT00"))) {
            return true;
        }
        return TRANSIENT_CODES.contains(sql.getErrorCode());
    }

    private static String innermost(Throwable failure) {
        Throwable t = failure;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }
}
