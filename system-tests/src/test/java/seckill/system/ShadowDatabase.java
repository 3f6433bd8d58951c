package seckill.system;

import io.helidon.dbclient.DbClient;

/**
 * A rehearsal's shadow tables for a test (issue #34, docs/rehearsal.md): the database beside the real one named
 * {@code <real>_rehearsal}, dropped and created empty, so the instance given {@link #url()} as
 * {@code seckill.rehearsal.db.url} migrates it at its start as it would in production.
 */
public record ShadowDatabase(String real, String name, String url) {

    /** Drops and creates the shadow database of the real database {@code realUrl} names. */
    public static ShadowDatabase fresh(DbClient db, String realUrl) {
        String real = databaseOf(realUrl);
        String shadow = real + "_rehearsal";
        db.execute().dml("DROP DATABASE IF EXISTS " + shadow);
        db.execute().dml("CREATE DATABASE " + shadow);
        return new ShadowDatabase(real, shadow, realUrl.replaceFirst("/" + real + "(\\?|$)", "/" + shadow + "$1"));
    }

    private static String databaseOf(String jdbcUrl) {
        String path = jdbcUrl.substring(jdbcUrl.indexOf("//") + 2);
        path = path.substring(path.indexOf('/') + 1);
        int query = path.indexOf('?');
        return query < 0 ? path : path.substring(0, query);
    }
}
