package seckill.ledger.api;

/**
 * Stops and restarts this instance's ordering workers. Used by operators during maintenance and by
 * the drill to rehearse a consumer crash; events handed to a stopped worker stay pending in the
 * stream and are settled after the restart or reclaimed by another instance.
 */
public interface OrderingSwitch {

    void pause();

    void resume();

    boolean running();

    /**
     * Why ordering is backing off, while this instance's workers find the ledger database away
     * (purchases keep being answered from Redis and queue in the stream meanwhile); empty otherwise.
     */
    java.util.Optional<String> ledgerOutage();

    /** Workers currently alive. */
    int aliveWorkers();

    /**
     * The peak-shaving cap the workers apply now: the hot switch {@code seckill.ordering.max-orders-per-second}
     * as last read (read again when older than half a second), 0 for no cap. What {@code GET
     * /api/v1/admin/switches} shows for it.
     */
    long maxOrdersPerSecond();
}
