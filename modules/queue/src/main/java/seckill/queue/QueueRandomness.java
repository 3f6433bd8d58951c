package seckill.queue;

import java.util.random.RandomGenerator;

/**
 * Where the pre-queue's draws come from: a {@link java.security.SecureRandom} in service, a seeded generator
 * when {@code seckill.queue.shuffle-seed} is set or a test builds the class itself.
 */
record QueueRandomness(RandomGenerator generator) {
}
