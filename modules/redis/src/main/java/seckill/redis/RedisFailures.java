package seckill.redis;

import java.util.NoSuchElementException;

/**
 * What a Redis client failure means for the caller. A call that failed because the local pool had
 * no connection to give never left this instance: nothing happened in Redis and a retry is safe.
 * Any other failure (refused, reset, timed out, a script error) may have run the command: in doubt.
 */
public final class RedisFailures {

    private RedisFailures() {
    }

    /** Whether a Redis client failure is only the local pool running out of connections. */
    public static boolean poolExhausted(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof NoSuchElementException) {
                return true;
            }
        }
        return false;
    }
}
