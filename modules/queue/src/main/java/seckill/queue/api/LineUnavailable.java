package seckill.queue.api;

/**
 * Redis did not answer a call of the line, or the replicas did not acknowledge its write: the buyer is told
 * to try again (joining again is safe: it returns the same place).
 */
public final class LineUnavailable extends RuntimeException {

    public LineUnavailable(String message, Throwable cause) {
        super(message, cause);
    }
}
