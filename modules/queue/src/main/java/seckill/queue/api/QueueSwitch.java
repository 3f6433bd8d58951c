package seckill.queue.api;

/** The operators' hot switches of the queue: {@code seckill.queue.enabled} and {@code seckill.queue.rate}. */
public interface QueueSwitch {

    /** Whether the queue is on: purchases then need a pass. */
    boolean on();

    /** Buyers called per second per activity, over all instances. */
    long rate();
}
