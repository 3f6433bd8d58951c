package seckill.system;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The Debian tools some tests drive as real processes (nginx, promtool, Chromium). On a developer's
 * machine without them those tests are skipped, so a newcomer needs only a JDK and Maven; where
 * {@code SECKILL_REQUIRE_BROWSER} is set (CI, whose {@code .ci/run} installs them) a missing tool, or
 * a user who cannot run it as the test needs, fails the test instead of skipping it.
 */
public final class MachineTools {

    public static final Path NGINX = Path.of("/usr/sbin/nginx");
    public static final Path PROMTOOL = Path.of("/usr/bin/promtool");

    private MachineTools() {
    }

    /** Skips (or, where required, fails) unless {@code condition} holds; {@code why} says what is missing. */
    public static void require(boolean condition, String why) {
        if (!condition && System.getenv("SECKILL_REQUIRE_BROWSER") != null) {
            throw new AssertionError("SECKILL_REQUIRE_BROWSER is set but " + why);
        }
        assumeTrue(condition, why);
    }

    public static void requireNginx() {
        require(Files.isExecutable(NGINX), NGINX + " is missing (apt-get install nginx-light)");
    }

    /** Debian's libfaketime (package faketime), preloaded to move one process' wall clock. */
    public static final Path FAKETIME = Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1");

    public static void requireFaketime() {
        require(Files.isReadable(FAKETIME), FAKETIME + " is missing (apt-get install faketime)");
    }

    public static void requirePromtool() {
        require(Files.isExecutable(PROMTOOL), PROMTOOL + " is missing (apt-get install prometheus)");
    }
}
