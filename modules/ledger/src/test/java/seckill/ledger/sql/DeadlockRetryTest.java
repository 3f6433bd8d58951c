package seckill.ledger.sql;

import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Which ledger failures are run again: a deadlock's victim (1213 / 40001), a few times, nothing else. */
class DeadlockRetryTest {

    private static RuntimeException deadlock() {
        return new IllegalStateException("Failed to execute statement",
                new SQLException("Deadlock found when trying to get lock; try restarting transaction", "40001", 1213));
    }

    @Test
    void aDeadlockVictimIsRunAgain() {
        AtomicInteger runs = new AtomicInteger();
        String result = Transactions.retryingDeadlocks(() -> {
            if (runs.incrementAndGet() < 3) {
                throw deadlock();
            }
            return "done";
        });
        assertThat(result, is("done"));
        assertThat(runs.get(), is(3));
    }

    /**
     * mysql-connector-j reports a lock wait timeout (1205) with SQLState 40001, as it does a deadlock
     * (MysqlErrorNumbers maps both to "serialization failure"): taken by its state, a transaction that had
     * waited innodb_lock_wait_timeout already was run three times more, holding an ordering batch minutes.
     */
    @Test
    void aLockWaitTimeoutAsTheDriverReportsItIsNotRunAgain() {
        AtomicInteger runs = new AtomicInteger();
        assertThrows(IllegalStateException.class, () -> Transactions.retryingDeadlocks(() -> {
            runs.incrementAndGet();
            throw new IllegalStateException("Failed to execute statement",
                    new SQLException("Lock wait timeout exceeded; try restarting transaction", "40001", 1205));
        }));
        assertThat(runs.get(), is(1));
    }

    @Test
    void otherFailuresAndEndlessDeadlocksAreNotHidden() {
        AtomicInteger runs = new AtomicInteger();
        assertThrows(IllegalStateException.class, () -> Transactions.retryingDeadlocks(() -> {
            runs.incrementAndGet();
            throw new IllegalStateException("lock wait timeout", new SQLException("timeout", "HY000", 1205));
        }));
        assertThat(runs.get(), is(1));
        runs.set(0);
        assertThrows(IllegalStateException.class, () -> Transactions.retryingDeadlocks(() -> {
            runs.incrementAndGet();
            throw deadlock();
        }));
        assertThat(runs.get(), is(1 + Transactions.DEADLOCK_RETRIES));
    }
}
