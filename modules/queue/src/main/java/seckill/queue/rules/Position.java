package seckill.queue.rules;

/**
 * A buyer's position in the line: 1 for the next buyer to be called. Redis gives the number of buyers
 * waiting ahead (ZRANK of the line, whose score is the place handed out in join order); the place
 * itself never changes, the position falls as the buyers ahead are called. Plain logic.
 */
public final class Position {

    private Position() {
    }

    /** From the number of buyers ahead (0 or more). */
    public static long of(long ahead) {
        if (ahead < 0) {
            throw new IllegalArgumentException("ahead must be 0 or more, was " + ahead);
        }
        return ahead + 1;
    }
}
