package seckill.app.infra;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

class DatabaseUrlTest {

    @Test
    void theStatementCacheIsAddedToAPlainUrl() {
        assertThat(Database.withStatementCache("jdbc:mysql://db:3306/seckill"),
                is("jdbc:mysql://db:3306/seckill?cachePrepStmts=true&prepStmtCacheSize=250&prepStmtCacheSqlLimit=65536&useServerPrepStmts=true"));
    }

    @Test
    void anOperatorsOwnSettingsWin() {
        assertThat(Database.withStatementCache("jdbc:mysql://db/seckill?useSSL=true&cachePrepStmts=false&useServerPrepStmts=false"),
                is("jdbc:mysql://db/seckill?useSSL=true&cachePrepStmts=false&useServerPrepStmts=false&prepStmtCacheSize=250"
                        + "&prepStmtCacheSqlLimit=65536"));
    }
}
