package seckill.ordering.api;

/**
 * Stops and restarts this instance's ordering workers. Used by operators during maintenance and by
 * the drill to rehearse a consumer crash; events handed to a stopped worker stay pending in the
 * stream and are settled after the restart or reclaimed by another instance.
 */
public interface OrderingSwitch {

    void pause();

    void resume();

    boolean running();

    /** Where a rehearsed worker crash happens: events read but not committed, or committed but not acknowledged. */
    enum CrashPoint { AFTER_READ, AFTER_COMMIT }

    /**
     * Fault injection for drills and tests: the next {@code times} batches that reach {@code point}
     * kill the worker thread that holds them, exactly as a process crash would leave them.
     */
    void injectCrash(CrashPoint point, int times);

    /**
     * Why ordering is backing off, while this instance's workers find the ledger database away
     * (purchases keep being answered from Redis and queue in the stream meanwhile); empty otherwise.
     */
    java.util.Optional<String> ledgerOutage();

    /** Workers currently alive. */
    int aliveWorkers();

    /** Events per read and per transaction from now on (1 settles one by one). */
    void batchSize(int events);
}
