package seckill.queue.rules;

import java.util.random.RandomGenerator;

/**
 * The pre-queue's order: a buyer who joins before the sale starts draws a number (uniform, 53 bits),
 * kept with their entry; at the start the pre-queue is placed in the order of the draws, which is a
 * uniformly random permutation of the pre-queue, whatever the order people arrived in. Arriving early
 * gains nothing; joining again keeps the first draw (the script keeps the entry it has). Plain logic:
 * the generator is handed in (a seeded one in tests and for a reproducible shuffle, else a
 * {@link java.security.SecureRandom}).
 */
public final class PreQueueShuffle {

    private PreQueueShuffle() {
    }

    /**
     * A draw as the text the Redis script stores as the entry's score: an integer below 2^53, which a
     * double (a sorted set's score) holds exactly.
     */
    public static String draw(RandomGenerator random) {
        long value;
        synchronized (random) {
            // a seeded SplittableRandom is not thread-safe; a test's sequence must not tear
            value = random.nextLong() >>> 11;
        }
        return Long.toString(value);
    }
}
