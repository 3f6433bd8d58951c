package seckill.ledger.sql;

import java.sql.SQLIntegrityConstraintViolationException;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;

/** Which unique key a duplicate refused: the one the database names, never text the client chose. */
class ViolatedKeyTest {

    @Test
    void theKeyIsTheOneNamedAtTheEndNotOneQuotedInTheValue() {
        var mariaDb = new SQLIntegrityConstraintViolationException(
                "(conn=12) Duplicate entry '7/1/42/uk_order_reservation' for key 'uk_order_request'", "23000", 1062);
        assertThat(OrderWriter.violatedKey(new RuntimeException(mariaDb)), is("uk_order_request"));
    }

    @Test
    void mySqlEightNamesTheKeyWithItsTable() {
        var mySql = new SQLIntegrityConstraintViolationException(
                "Duplicate entry 'uk_order_no' for key 'seckill_order.uk_order_buyer'", "23000", 1062);
        assertThat(OrderWriter.violatedKey(mySql), is("uk_order_buyer"));
    }

    @Test
    void aValueThatImitatesTheKeyClauseDoesNotWin() {
        var forged = new SQLIntegrityConstraintViolationException(
                "Duplicate entry 'x' for key 'uk_order_reservation' for key 'uk_order_request'", "23000", 1062);
        assertThat(OrderWriter.violatedKey(forged), is("uk_order_request"));
    }

    @Test
    void aDuplicateWithoutANamedKeyIsUnknownAndOtherFailuresAreNone() {
        assertThat(OrderWriter.violatedKey(new SQLIntegrityConstraintViolationException("Duplicate entry", "23000", 1062)),
                is("unknown"));
        assertThat(OrderWriter.violatedKey(new IllegalStateException("for key 'uk_order_reservation'")), nullValue());
    }
}
