package seckill.app.infra;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Reads {@code seckill.properties} from the operator's config directory ({@code config/} beside the
 * working directory, or {@code SECKILL_CONFIG_DIR}). It ranks above the built-in defaults and below
 * environment variables and system properties, so a deployment can still override any line.
 */
public final class ConfigDirectorySource implements ConfigSource {

    private static final int ORDINAL = 250;
    private final Map<String, String> values;
    private final String name;

    public ConfigDirectorySource() {
        String dir = System.getProperty("seckill.config.dir", System.getenv().getOrDefault("SECKILL_CONFIG_DIR", "config"));
        Path file = Path.of(dir, "seckill.properties");
        this.name = "config-dir:" + file.toAbsolutePath();
        this.values = read(file);
    }

    private static Map<String, String> read(Path file) {
        Map<String, String> map = new HashMap<>();
        if (!Files.isRegularFile(file)) {
            return map;
        }
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            properties.load(in);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
        properties.forEach((k, v) -> map.put(k.toString(), v.toString()));
        return map;
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
        return name;
    }

    @Override
    public int getOrdinal() {
        return ORDINAL;
    }
}
