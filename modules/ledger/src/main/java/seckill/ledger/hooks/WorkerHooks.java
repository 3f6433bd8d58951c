package seckill.ledger.hooks;

/**
 * What tests, drills and the benchmark may do to this instance's ordering workers and no ordinary
 * caller may: rehearse a crash, change how many events a worker takes at once. Exported to
 * {@code seckill.app} only (module-info), so it is not part of the module's public door.
 */
public interface WorkerHooks {

    /**
     * Fault injection for drills and tests: the next {@code times} batches that reach {@code point}
     * kill the worker thread that holds them, exactly as a process crash would leave them.
     */
    void injectCrash(CrashPoint point, int times);

    /** Events per read and per transaction from now on (1 settles one by one). */
    void batchSize(int events);
}
