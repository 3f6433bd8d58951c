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

    /** Events per read and per transaction from now on (1 settles one by one). */
    void batchSize(int events);
}
