package seckill.app.infra;

import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * The default of {@code server.max-tcp-connections}, from this process' limit of open files: half of
 * what is left once the JVM is up, at most {@value #MOST} and at least {@value #LEAST}. Helidon ends
 * its listener for good when an accept fails for want of a file (issue #36), so its connections must
 * never take the last files; half leaves room for the pools, the jars and outbound calls, whatever the
 * host's {@code ulimit -n}. Any value set elsewhere wins (this source ranks lowest); where the platform
 * does not say its limit, {@value #MOST}.
 */
public final class ConnectionCapSource implements ConfigSource {

    static final long MOST = 10_000;
    static final long LEAST = 64;

    private final Map<String, String> values;

    public ConnectionCapSource() {
        values = Map.of("server.max-tcp-connections",
                Long.toString(cap(ConnectionLimits.FileLimit.max(), ConnectionLimits.FileLimit.open())));
    }

    static long cap(OptionalLong maxFiles, OptionalLong openFiles) {
        if (maxFiles.isEmpty()) {
            return MOST;
        }
        long left = maxFiles.getAsLong() - openFiles.orElse(0);
        return Math.max(LEAST, Math.min(MOST, left / 2));
    }

    @Override
    public Set<String> getPropertyNames() {
        return values.keySet();
    }

    @Override
    public String getValue(String propertyName) {
        return values.get(propertyName);
    }

    @Override
    public String getName() {
        return "connection-cap-from-file-limit";
    }

    @Override
    public int getOrdinal() {
        return 2;
    }
}
