package seckill.ledger.api;

import java.io.EOFException;
import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientConnectionException;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/** Which failures are the database being away (never held against a reservation) and which are the ledger refusing. */
class LedgerUnavailableTest {

    @Test
    void connectionFailuresPoolTimeoutsLockWaitsAndReadOnlyAreOutages() {
        assertThat(LedgerUnavailable.isOutage(wrapped(new SQLTransientConnectionException(
                "seckill - Connection is not available, request timed out after 3000ms."))), is(true));
        assertThat(LedgerUnavailable.isOutage(wrapped(new SQLException("Communications link failure", "08S01", 0,
                new EOFException("Can not read response from server")))), is(true));
        assertThat(LedgerUnavailable.isOutage(wrapped(new SQLException("No operations allowed after connection closed.",
                "08003"))), is(true));
        assertThat(LedgerUnavailable.isOutage(wrapped(new SQLException("Lock wait timeout exceeded", "HY000", 1205))),
                is(true));
        assertThat(LedgerUnavailable.isOutage(wrapped(new SQLTransactionRollbackException("Deadlock found", "40001",
                1213))), is(true));
        assertThat(LedgerUnavailable.isOutage(wrapped(new SQLException(
                "The MariaDB server is running with the --read-only option", "HY000", 1290))), is(true));
        assertThat(LedgerUnavailable.isOutage(wrapped(new RuntimeException(new ConnectException("Connection refused")))),
                is(true));
        assertThat(LedgerUnavailable.isOutage(new LedgerUnavailable(new RuntimeException("x"))), is(true));
    }

    @Test
    void constraintsAndBadDataAreTheLedgerRefusing() {
        assertThat(LedgerUnavailable.isOutage(wrapped(new SQLIntegrityConstraintViolationException(
                "Duplicate entry for key 'uk_order_buyer'", "23000", 1062))), is(false));
        assertThat(LedgerUnavailable.isOutage(wrapped(new SQLException("Data too long for column 'request_id'", "22001",
                1406))), is(false));
        assertThat(LedgerUnavailable.isOutage(new IllegalStateException("ledger has less than 1 units")), is(false));
    }

    /** As Helidon's DB client hands them over: the driver's exception as a cause. */
    private static RuntimeException wrapped(Throwable cause) {
        return new RuntimeException("Failed to execute statement", cause);
    }
}
