package seckill.system.architecture.probe.api;

import java.sql.Connection;
import java.sql.SQLException;

/** A made-up api class that hands a JDBC connection to its callers: {@code ArchitectureTest} must refuse it. */
public final class TakesAConnection {

    private TakesAConnection() {
    }

    public static boolean readOnly(Connection connection) throws SQLException {
        return connection.isReadOnly();
    }
}
