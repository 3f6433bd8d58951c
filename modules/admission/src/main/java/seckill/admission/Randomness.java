package seckill.admission;

import java.util.HexFormat;
import java.util.random.RandomGenerator;

/**
 * Where admission's randomness comes from: challenge and token ids, captcha answers and how each picture
 * is drawn. In service a {@link java.security.SecureRandom} (produced by {@link AdmissionConfiguration});
 * a test hands a seeded generator to the class it builds, and gets the same pictures every run.
 */
record Randomness(RandomGenerator generator) {

    /** {@code bytes} random bytes as lower-case hex. */
    String hexId(int bytes) {
        byte[] id = new byte[bytes];
        synchronized (generator) {
            // SecureRandom is thread-safe; a seeded SplittableRandom is not, and a test's stream must not tear
            for (int i = 0; i < bytes; i++) {
                id[i] = (byte) generator.nextInt(256);
            }
        }
        return HexFormat.of().formatHex(id);
    }
}
