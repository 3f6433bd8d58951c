package seckill.app.infra;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.Set;

import io.helidon.config.yaml.mp.YamlMpConfigSource;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * The operators' hot switches: {@code switches.yaml} in the config directory ({@code config/}, or
 * {@code SECKILL_CONFIG_DIR}), read by Helidon's YAML config source (flat {@code key: value} lines or
 * nested maps). It is re-read when its modification time changes (checked at most every 250 ms), so
 * an edit takes effect without a restart: Helidon's MicroProfile config sources are read once, so the
 * change detection is this class's one job. It ranks above the config files and below environment
 * variables and system properties.
 */
public final class SwitchesFileSource implements ConfigSource {

    private static final int ORDINAL = 260;
    private static final long CHECK_EVERY_MILLIS = 250;

    private volatile Path file;
    private volatile Map<String, String> values = Map.of();
    private volatile FileTime readAt;
    private volatile long checkedAt;

    public SwitchesFileSource() {
        reloadIfChanged();
    }

    private static Path locate() {
        String dir = System.getProperty("seckill.config.dir", System.getenv().getOrDefault("SECKILL_CONFIG_DIR", "config"));
        return Path.of(dir, "switches.yaml");
    }

    private synchronized void reloadIfChanged() {
        long now = System.currentTimeMillis();
        if (now - checkedAt < CHECK_EVERY_MILLIS && readAt != null) {
            return;
        }
        checkedAt = now;
        Path located = locate();
        if (!located.equals(file)) {
            file = located;
            readAt = null;
        }
        try {
            if (!Files.isRegularFile(file)) {
                values = Map.of();
                readAt = FileTime.fromMillis(0);
                return;
            }
            FileTime modified = Files.getLastModifiedTime(file);
            if (readAt != null && modified.equals(readAt)) {
                return;
            }
            values = Map.copyOf(YamlMpConfigSource.create(file).getProperties());
            readAt = modified;
        } catch (IOException | RuntimeException e) {
            // a file being rewritten right now: keep the previous values and look again next time
        }
    }

    @Override
    public Set<String> getPropertyNames() {
        reloadIfChanged();
        return values.keySet();
    }

    @Override
    public String getValue(String propertyName) {
        reloadIfChanged();
        return values.get(propertyName);
    }

    @Override
    public String getName() {
        return "switches:" + file.toAbsolutePath();
    }

    @Override
    public int getOrdinal() {
        return ORDINAL;
    }
}
