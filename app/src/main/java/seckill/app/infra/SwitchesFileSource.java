package seckill.app.infra;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * The operators' hot switches: {@code switches.yaml} in the config directory ({@code config/}, or
 * {@code SECKILL_CONFIG_DIR}), flat {@code key: value} lines. It is re-read when its modification
 * time changes (checked at most every 250 ms), so an edit takes effect without a restart. It ranks
 * above the config files and below environment variables and system properties.
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
            values = parse(Files.readString(file, StandardCharsets.UTF_8));
            readAt = modified;
        } catch (IOException | RuntimeException e) {
            // a file being rewritten right now: keep the previous values and look again next time
        }
    }

    static Map<String, String> parse(String text) {
        Map<String, String> parsed = new HashMap<>();
        for (String raw : text.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int colon = line.indexOf(':');
            if (colon < 1) {
                continue;
            }
            String value = line.substring(colon + 1).strip();
            int comment = value.indexOf(" #");
            if (comment >= 0) {
                value = value.substring(0, comment).strip();
            }
            if (value.length() >= 2 && (value.startsWith("\"") && value.endsWith("\"")
                    || value.startsWith("'") && value.endsWith("'"))) {
                value = value.substring(1, value.length() - 1);
            }
            parsed.put(line.substring(0, colon).strip(), value);
        }
        return parsed;
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
