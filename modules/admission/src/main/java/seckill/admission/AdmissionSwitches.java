package seckill.admission;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.ConfigValue;
import seckill.admission.api.SwitchesView;

/**
 * The operators' hot switches, read from MicroProfile Config (where {@code config/switches.yaml}
 * is a source that re-reads itself) and refreshed every half second, so a change takes effect
 * within about a second without a restart. The purchase path reads plain fields, never Config.
 */
@HotPathSingleton
class AdmissionSwitches implements SwitchesView {

    static final String PREFIX = "seckill.admission.";
    static final Map<String, String> DEFAULTS = new LinkedHashMap<>();

    static {
        DEFAULTS.put("buyer-rate", "1");
        DEFAULTS.put("buyer-window-millis", "1000");
        DEFAULTS.put("global-rate", "0");
        DEFAULTS.put("token-required", "true");
        DEFAULTS.put("blocked-users", "");
        DEFAULTS.put("blocked-ips", "");
        DEFAULTS.put("sold-out-threshold", "0");
        DEFAULTS.put("halt", "false");
        DEFAULTS.put("proof-of-work-bits", "14");
        DEFAULTS.put("proof-of-work-load-threshold", "50");
        DEFAULTS.put("proof-of-work-max-bits", "22");
    }

    // read through methods only: callers hold a CDI client proxy, whose own fields are never set
    private volatile long buyerRate;
    private volatile long buyerWindowMillis;
    private volatile long globalRate;
    private volatile boolean tokenRequired;
    private volatile Set<String> blockedUsers = Set.of();
    private volatile Set<String> blockedIps = Set.of();
    private volatile long soldOutThreshold;
    private volatile boolean halt;
    private volatile int proofOfWorkBits;
    private volatile long proofOfWorkLoadThreshold;
    private volatile int proofOfWorkMaxBits;

    /** The base difficulty of the proof of work in front of a token (leading zero bits; 0 = none). */
    int proofOfWorkBits() {
        return proofOfWorkBits;
    }

    /** Challenges per second (this instance, last ten seconds) from which the difficulty rises. */
    long proofOfWorkLoadThreshold() {
        return proofOfWorkLoadThreshold;
    }

    int proofOfWorkMaxBits() {
        return proofOfWorkMaxBits;
    }

    long buyerRate() {
        return buyerRate;
    }

    long buyerWindowMillis() {
        return buyerWindowMillis;
    }

    /**
     * A configured window within what the reservation script judges: at least 1 ms, at most 10^12 ms
     * (its {@code BuyerWindow.MAX_MILLIS}: "once a sale" set as Long.MAX_VALUE is the longest window).
     */
    private static long windowMillis(long configured) {
        return Math.clamp(configured, 1L, 1_000_000_000_000L);
    }

    long globalRate() {
        return globalRate;
    }

    boolean tokenRequired() {
        return tokenRequired;
    }

    Set<String> blockedUsers() {
        return blockedUsers;
    }

    Set<String> blockedIps() {
        return blockedIps;
    }

    long soldOutThreshold() {
        return soldOutThreshold;
    }

    boolean halt() {
        return halt;
    }

    /** Sets the limits directly, for a stack assembled without MicroProfile Config. */
    void set(long buyerRate, long buyerWindowMillis, long globalRate, boolean tokenRequired) {
        this.buyerRate = buyerRate;
        this.buyerWindowMillis = windowMillis(buyerWindowMillis);
        this.globalRate = globalRate;
        this.tokenRequired = tokenRequired;
    }

    /** Sets the blocklists and the halt switch directly (unit tests; in service they come from config). */
    void set(Set<String> blockedUsers, Set<String> blockedIps, boolean halt) {
        this.blockedUsers = Set.copyOf(blockedUsers);
        this.blockedIps = Set.copyOf(blockedIps);
        this.halt = halt;
    }

    private ScheduledExecutorService refresher;

    @PostConstruct
    void start() {
        refresh();
        refresher = Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().daemon(true)
                .name("admission-switches").unstarted(r));
        refresher.scheduleWithFixedDelay(this::refreshQuietly, 500, 500, TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        refresher.shutdownNow();
    }

    private void refreshQuietly() {
        try {
            refresh();
        } catch (RuntimeException ignored) {
            // a half-written file or a bad value keeps the previous switches until it is fixed
        }
    }

    void refresh() {
        Config config = ConfigProvider.getConfig();
        Map<String, String> read = new LinkedHashMap<>();
        DEFAULTS.keySet().forEach(name -> read.put(name, value(config, name)));
        buyerRate = Math.max(1, Long.parseLong(value(config, "buyer-rate")));
        buyerWindowMillis = windowMillis(Long.parseLong(value(config, "buyer-window-millis")));
        globalRate = Math.max(0, Long.parseLong(value(config, "global-rate")));
        tokenRequired = Boolean.parseBoolean(value(config, "token-required"));
        blockedUsers = list(value(config, "blocked-users"));
        blockedIps = list(value(config, "blocked-ips"));
        soldOutThreshold = Math.max(0, Long.parseLong(value(config, "sold-out-threshold")));
        halt = Boolean.parseBoolean(value(config, "halt"));
        // more than 32 bits is billions of hashes: no page finishes that, so it is no setting anyone means
        proofOfWorkBits = Math.clamp(Integer.parseInt(value(config, "proof-of-work-bits")), 0, 32);
        proofOfWorkLoadThreshold = Math.max(0, Long.parseLong(value(config, "proof-of-work-load-threshold")));
        proofOfWorkMaxBits = Math.clamp(Integer.parseInt(value(config, "proof-of-work-max-bits")), 0, 32);
        applied = Map.copyOf(read);
    }

    /** The raw values of the last refresh that parsed: what is in force, which the view reports. */
    private volatile Map<String, String> applied = Map.of();

    @Override
    public Map<String, String[]> effective() {
        Config config = ConfigProvider.getConfig();
        Map<String, String[]> effective = new LinkedHashMap<>();
        Map<String, String> inForce = applied;
        for (String name : DEFAULTS.keySet()) {
            // the value admission applies now (a refresh runs every 500 ms), and where config has it from
            ConfigValue value = config.getConfigValue(PREFIX + name);
            String source = value.getValue() == null ? "default" : String.valueOf(value.getSourceName());
            effective.put(PREFIX + name, new String[] {inForce.getOrDefault(name, DEFAULTS.get(name)), source});
        }
        return effective;
    }

    private static String value(Config config, String name) {
        return config.getOptionalValue(PREFIX + name, String.class).orElse(DEFAULTS.get(name)).trim();
    }

    private static Set<String> list(String text) {
        return Stream.of(text.split(",")).map(String::trim).filter(s -> !s.isEmpty()).collect(Collectors.toUnmodifiableSet());
    }
}
