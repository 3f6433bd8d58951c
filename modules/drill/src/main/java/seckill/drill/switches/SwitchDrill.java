package seckill.drill.switches;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import seckill.client.RehearsalMark;
import seckill.client.TokenMint;

/**
 * The switch drill: flips each hot switch a sale day relies on ({@link HotSwitch#SALE_DAY}), one at a
 * time, and times on every instance how long until the flip shows, in the value the instance reports
 * and, where a cheap probe exists, in its answer to a purchase; then puts the switch back and times
 * that too. The switches file is edited one line at a time and written whole (temporary file, rename);
 * it is put back byte for byte after each switch and, whatever happens (a failure, an interrupt), at
 * the end. Instances the drill halted through the admin endpoint are resumed. Callable from another
 * drill (a rehearsal) with its own probe activity ({@link #withProbeActivity}).
 * <p>
 * With {@code --rehearsal} the probe activity is a shadow sale (docs/rehearsal.md): launched with
 * {@code "rehearsal": true}, each probe carrying the edge's signed mark for it and its buyer, purged
 * ({@code DELETE}) at the end, so the probes write nothing of the real world. The switches themselves are the
 * deployment's, except the endpoint's halt and resume: one halt per world (docs/rehearsal.md step 3), so the drill
 * halts, reads and resumes the rehearsal world's ({@code ?world=rehearsal}) and leaves real sales alone; the switches
 * file's {@code seckill.admission.halt} is the instance's and halts both worlds.
 */
public final class SwitchDrill {

    /** The name of the drill's own probe activity; the safety check does not count activities so named. */
    public static final String PROBE_NAME = "switch drill probe, not for sale";

    private static final Duration POLL = Duration.ofMillis(50);
    /** How long a request of the drill's setup may take (not timed: before the first flip, after the last). */
    private static final Duration PATIENT = Duration.ofSeconds(15);
    /** Purchases per global-rate probe: with the rate at 1 a second over all instances, at least two are refused. */
    private static final int BURST = 3;

    private final SwitchDrillOptions options;
    private final Optional<TokenMint> mint;
    private final Optional<RehearsalMark> mark;
    private final PrintStream out;
    private final LongSupplier nanos;
    private final SwitchesFile file;
    private final List<InstanceApi> instances;
    private final Object writing = new Object();
    private final Set<InstanceApi> haltedByDrill = ConcurrentHashMap.newKeySet();
    private final List<String> notes = new ArrayList<>();
    private volatile byte[] original;
    private volatile boolean fileFlipped;
    private volatile boolean stopping;
    private final java.util.concurrent.atomic.AtomicBoolean purged = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile long probeActivity;
    private long probeSku = 1;
    private boolean ownProbeActivity = true;

    /**
     * A drill of {@code options.instances()} with {@code adminToken}; {@code mint} signs the probes' buyer
     * tokens (empty: no probes).
     */
    public SwitchDrill(SwitchDrillOptions options, String adminToken, Optional<TokenMint> mint, PrintStream out,
                       LongSupplier nanos) {
        this.options = options;
        this.mint = options.probes() ? mint : Optional.empty();
        this.mark = options.edgeKeyFile().map(SwitchDrill::edgeKey).map(RehearsalMark::new);
        this.out = out;
        this.nanos = nanos;
        this.file = new SwitchesFile(options.switchesFile());
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(1)).build();
        // one request may take at most the poll's share of the bound: a paused instance must not hold the others up
        Duration timeout = Duration.ofMillis(Math.max(500, Math.min(1_000, options.bound().toMillis() / 2)));
        // a rehearsal's drill halts and resumes the rehearsals only (one halt per world, docs/rehearsal.md step 3)
        this.instances = options.instances().stream().map(u -> new InstanceApi(u, adminToken, http, timeout))
                .map(api -> options.rehearsal() ? api.rehearsals() : api).toList();
    }

    /** The edge's key from its file: its first line, surrounding blanks left out. */
    private static String edgeKey(java.nio.file.Path file) {
        try {
            return java.nio.file.Files.readAllLines(file).stream().findFirst().orElse("").strip();
        } catch (IOException e) {
            throw new IllegalArgumentException("--edge-key-file " + file + " cannot be read: " + e, e);
        }
    }

    /**
     * Probes purchases of {@code sku} of {@code activity} (an activity of the caller's own, e.g. a rehearsal's,
     * whose probes then need the drill's {@code --rehearsal} and edge key)
     * instead of creating one. A probe asks {@code perUserLimit} units of a SKU that has fewer left, so it
     * never reserves; the activity must be open and its SKU hold fewer units than a buyer may ask.
     */
    public SwitchDrill withProbeActivity(long activity, long sku) {
        this.probeActivity = activity;
        this.probeSku = sku;
        this.ownProbeActivity = false;
        return this;
    }

    /** Refused: a sale is open and the drill was not forced. */
    public static final class Refused extends Exception {
        public Refused(String message) {
            super(message);
        }
    }

    /** Runs the drill; the report (also written to the options' report files by the caller). */
    public SwitchReport run() throws IOException, InterruptedException, Refused {
        original = file.bytes();
        String originalText = new String(original, StandardCharsets.UTF_8);
        Optional<String> unsupported = SwitchesYaml.unsupported(originalText);
        if (unsupported.isPresent()) {
            throw new IllegalStateException(file + " cannot be edited line by line: " + unsupported.get());
        }
        Map<InstanceApi, Map<String, String[]>> before = new HashMap<>();
        Map<InstanceApi, String> salesBefore = new HashMap<>();
        for (InstanceApi api : instances) {
            before.put(api, api.patient(PATIENT).switches());
            salesBefore.put(api, api.patient(PATIENT).sales());
            before.get(api).forEach((key, v) -> {
                if (!v[1].equals("default") && !v[1].startsWith("switches:")) {
                    note(api.base() + ": " + key + " comes from " + v[1] + ", not from the switches file (where that "
                            + "source ranks above the file, e.g. an environment variable, the file cannot flip it)");
                }
            });
        }
        refuseWhileASaleIsOpen();
        List<SwitchReport.SwitchResult> results = new ArrayList<>();
        Instant started = Instant.now();
        try {
            Map<InstanceApi, String> baseline = probeBaselines();
            Thread hook = Thread.ofPlatform().unstarted(this::restoreOnExit);
            Runtime.getRuntime().addShutdownHook(hook);
            try {
                for (HotSwitch hot : HotSwitch.SALE_DAY) {
                    if (Thread.currentThread().isInterrupted()) {
                        throw new InterruptedException();
                    }
                    results.add(hot.endpoint() ? endpoint(hot, salesBefore, baseline)
                            : fileSwitch(hot, originalText, before, baseline));
                }
            } finally {
                restore();
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException shuttingDown) {
                    // the hook runs or ran: it restores the same way
                }
            }
        } finally {
            purgeProbeRehearsal();
        }
        if (!Arrays.equals(file.bytes(), original)) {
            note("the switches file differs from what it was before the drill (someone else wrote it meanwhile?)");
        }
        Optional<Long> probed = probeActivity == 0 ? Optional.empty() : Optional.of(probeActivity);
        return new SwitchReport(started, Instant.now(), file.path().toString(), options.instances(), options.bound(),
                options.resumeBound(), options.watch(), probed, results, List.copyOf(notes));
    }

    /** The rehearsal the drill launched for its probes, purged: nothing of it is left. */
    private void purgeProbeRehearsal() {
        if (!options.rehearsal() || !ownProbeActivity || probeActivity == 0 || purged.getAndSet(true)) {
            return;
        }
        try {
            instances.getFirst().patient(PATIENT).purge(probeActivity);
            note("probe rehearsal " + probeActivity + " purged (no key and no shadow row of it is left)");
        } catch (IOException | InterruptedException e) {
            note("PROBE REHEARSAL " + probeActivity + " NOT PURGED (" + e + "): DELETE /api/v1/admin/activities/"
                    + probeActivity);
        }
    }

    private void note(String note) {
        synchronized (notes) {
            notes.add(note);
        }
        out.println("switch drill: " + note);
    }

    // ---- safety

    private void refuseWhileASaleIsOpen() throws IOException, InterruptedException, Refused {
        JsonObject overview = instances.getFirst().patient(PATIENT).overview();
        List<String> open = new ArrayList<>();
        for (JsonValue value : overview.getJsonArray("activities")) {
            JsonObject activity = value.asJsonObject();
            if ("OPEN".equals(activity.getString("state", "")) && !activity.getString("name", "").startsWith(PROBE_NAME)
                    && activity.getJsonNumber("activityId").longValue() != probeActivity) {
                open.add(activity.getJsonNumber("activityId") + " \"" + activity.getString("name", "") + "\" ("
                        + activity.getString("startsAt", "?") + " .. " + activity.getString("endsAt", "?") + ")");
            }
        }
        if (open.isEmpty()) {
            return;
        }
        String words = "a sale is open: " + String.join(", ", open);
        if (!options.force()) {
            throw new Refused(words + "; flipping the halt halts it. Run when no sale window is open, or with --force");
        }
        note("--force: " + words + " (its buyers meet every flip)");
    }

    // ---- probes

    /** Each instance's answer to a probe before any flip; instances whose answer shows nothing are not probed. */
    private Map<InstanceApi, String> probeBaselines() throws IOException, InterruptedException, Refused {
        Map<InstanceApi, String> baseline = new HashMap<>();
        if (mint.isEmpty()) {
            note("no probes (--no-probes or no identity key): only the values the instances show are timed");
            return baseline;
        }
        if (ownProbeActivity) {
            JsonObject overview = instances.getFirst().patient(PATIENT).overview();
            // the ledger's clock, which every instance keeps: a start a little in its past is open on each
            Instant now = Instant.parse(overview.getString("serverTime"));
            Duration planned = options.watch().multipliedBy(2L * HotSwitch.SALE_DAY.size()).plusMinutes(1);
            String json = ("{\"name\":\"%s %s\",\"startsAt\":\"%s\",\"endsAt\":\"%s\",\"paymentWindowSeconds\":60,"
                    + "\"skus\":[{\"skuId\":%d,\"stock\":1,\"perUserLimit\":2}]%s}").formatted(PROBE_NAME, now,
                    now.minusSeconds(5), now.plus(planned), probeSku, options.rehearsal() ? ",\"rehearsal\":true" : "");
            try {
                probeActivity = instances.getFirst().patient(PATIENT).launch(json, "switch-drill-" + java.util.UUID.randomUUID());
            } catch (InstanceApi.RehearsalNotAvailable e) {
                throw new Refused(e.getMessage() + " (a shadow database, seckill.rehearsal.db.url, and "
                        + "seckill.rehearsal.launch.enabled are needed): nothing was created or flipped");
            }
            out.println("switch drill: probe " + (options.rehearsal() ? "rehearsal " : "activity ") + probeActivity
                    + " (1 unit, each probe asks 2: never reserves)");
        }
        for (InstanceApi api : instances) {
            // the first purchase of the activity on an instance loads it from the ledger: warm it before timing
            String answer = probe(api.patient(PATIENT));
            if (answer.startsWith("409 INSUFFICIENT_STOCK") || answer.startsWith("403 TOKEN_INVALID")
                    || answer.startsWith("409 NOT_STARTED")) {
                baseline.put(api, answer);
                if (!answer.startsWith("409 INSUFFICIENT_STOCK")) {
                    note(api.base() + ": a probe answers " + answer + " (not admitted): the global rate is not probed there");
                }
            } else {
                note(api.base() + ": a probe answers " + answer + " before any flip: no probes there");
            }
        }
        return baseline;
    }

    private String probe(InstanceApi api) throws InterruptedException {
        long buyer = ThreadLocalRandom.current().nextLong(1_000_000_000L, 9_000_000_000_000L);
        String token = mint.orElseThrow().mint(buyer, Instant.now(), Duration.ofMinutes(10));
        return api.purchase(probeActivity, probeSku, 2, "switch-drill-" + buyer, token,
                mark.map(m -> m.sign(probeActivity, buyer, Instant.now())).orElse(null));
    }

    /** {@link #BURST} probes in a row; the first refused for the global rate, else the last answer. */
    private String burst(InstanceApi api) throws InterruptedException {
        String answer = "";
        for (int i = 0; i < BURST; i++) {
            answer = probe(api);
            if (answer.equals("429 THROTTLED GLOBAL")) {
                return answer;
            }
        }
        return answer;
    }

    // ---- flips

    private SwitchReport.SwitchResult fileSwitch(HotSwitch hot, String originalText,
                                                Map<InstanceApi, Map<String, String[]>> before,
                                                Map<InstanceApi, String> baseline) throws IOException, InterruptedException {
        String inForce = SwitchesYaml.valueOf(originalText, hot.key()).orElseGet(() ->
                before.get(instances.getFirst()).getOrDefault(hot.key(), new String[] {""})[0]);
        Optional<String> flip = hot.flipFrom(inForce);
        if (flip.isEmpty()) {
            List<Effect> skipped = new ArrayList<>();
            for (InstanceApi api : instances) {
                skipped.add(Effect.skipped(api.base().toString(), "flip", hot.key() + " is " + inForce
                        + " in the file: flipping it back would open sales"));
            }
            return new SwitchReport.SwitchResult(hot.key(), "file", inForce, "", skipped);
        }
        String flipped = flip.get();
        out.printf("switch drill: %s %s -> %s%n", hot.key(), inForce, flipped);
        List<Effect> effects = new ArrayList<>();
        boolean probed = hot.probedFlip(inForce, flipped);
        long t0 = writeFlip(SwitchesYaml.withValue(originalText, hot.key(), flipped));
        effects.addAll(watchAll(api -> {
            boolean probe = probed && probeable(hot, baseline.get(api));
            return watch(api, "flip", flipped, () -> value(api, hot.key()), probe ? () -> probeFor(hot, api) : null,
                    expectedAnswer(hot), t0);
        }));
        long t1 = writeOriginal();
        effects.addAll(watchAll(api -> {
            boolean probe = probed && probeable(hot, baseline.get(api));
            String back = before.get(api).getOrDefault(hot.key(), new String[] {inForce})[0];
            String usual = baseline.get(api);
            return watch(api, "restore", back, () -> value(api, hot.key()), probe ? () -> probeFor(hot, api) : null,
                    a -> a.equals(usual), t1);
        }));
        return new SwitchReport.SwitchResult(hot.key(), "file", inForce, flipped, effects);
    }

    private SwitchReport.SwitchResult endpoint(HotSwitch hot, Map<InstanceApi, String> salesBefore,
                                              Map<InstanceApi, String> baseline) throws InterruptedException {
        out.printf("switch drill: %s on each instance%n", hot.key());
        List<Effect> effects = new ArrayList<>(watchAll(api -> {
            if (!salesBefore.get(api).equals("OPEN")) {
                return Effect.skipped(api.base().toString(), "flip", "halted before the drill (" + salesBefore.get(api)
                        + "): not halted or resumed by it");
            }
            boolean probe = baseline.containsKey(api);
            long t0 = nanos.getAsLong();
            haltedByDrill.add(api);
            try {
                api.halt();
            } catch (IOException e) {
                // watched below: the state shows whether it took
            }
            return watch(api, "flip", "HALTED", api::sales, probe ? () -> probe(api) : null,
                    a -> a.startsWith("503 HALTED"), t0);
        }));
        effects.addAll(watchAll(api -> {
            if (!salesBefore.get(api).equals("OPEN")) {
                return Effect.skipped(api.base().toString(), "restore", "halted before the drill");
            }
            boolean probe = baseline.containsKey(api);
            String usual = baseline.get(api);
            long t0 = nanos.getAsLong();
            Thread resumer = Thread.ofVirtual().start(() -> resumeUntilOpen(api, t0));
            try {
                return watch(api, "restore", "OPEN", api::sales, probe ? () -> probe(api) : null, a -> a.equals(usual), t0);
            } finally {
                resumer.join();
            }
        }));
        return new SwitchReport.SwitchResult(hot.key(), "endpoint", "OPEN", "HALTED", effects);
    }

    /** Resumes {@code api} (not forced: it reconciles first), asking again while it answers 409, until the wait ends. */
    private void resumeUntilOpen(InstanceApi api, long t0) {
        String last = "";
        while (nanos.getAsLong() - t0 < options.watch().toNanos()) {
            try {
                HttpResponse<String> answer = api.resume();
                if (answer.statusCode() == 200) {
                    haltedByDrill.remove(api);
                    return;
                }
                last = answer.statusCode() + " " + answer.body();
            } catch (IOException e) {
                last = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            sleep(Duration.ofMillis(200));
        }
        note(api.base() + ": resume refused for " + options.watch().toSeconds() + " s (" + last
                + "); the drill asks again at its end");
    }

    private static boolean probeable(HotSwitch hot, String baseline) {
        return baseline != null && (hot.probe() != HotSwitch.Probe.GLOBAL_RATE || baseline.startsWith("409 INSUFFICIENT_STOCK"));
    }

    private String probeFor(HotSwitch hot, InstanceApi api) throws InterruptedException {
        return hot.probe() == HotSwitch.Probe.GLOBAL_RATE ? burst(api) : probe(api);
    }

    private static Predicate<String> expectedAnswer(HotSwitch hot) {
        return switch (hot.probe()) {
            case HALTED -> a -> a.startsWith("503 HALTED");
            case QUEUE_PASS -> a -> a.startsWith("403 QUEUE_PASS_REQUIRED");
            case GLOBAL_RATE -> a -> a.equals("429 THROTTLED GLOBAL");
            case NONE -> a -> false;
        };
    }

    private static String value(InstanceApi api, String key) throws IOException, InterruptedException {
        String[] v = api.switches().get(key);
        return v == null ? "(not shown)" : v[0] + " (" + v[1] + ")";
    }

    // ---- watching

    @FunctionalInterface
    private interface Read {
        String read() throws IOException, InterruptedException;
    }

    @FunctionalInterface
    private interface Probe {
        String answer() throws InterruptedException;
    }

    @FunctionalInterface
    private interface PerInstance {
        Effect measure(InstanceApi api) throws InterruptedException;
    }

    private List<Effect> watchAll(PerInstance measure) throws InterruptedException {
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Effect>> futures = new ArrayList<>();
            for (InstanceApi api : instances) {
                futures.add(pool.submit(() -> measure.measure(api)));
            }
            List<Effect> effects = new ArrayList<>();
            for (Future<Effect> f : futures) {
                try {
                    effects.add(f.get());
                } catch (java.util.concurrent.ExecutionException e) {
                    throw new IllegalStateException(e.getCause());
                }
            }
            return effects;
        }
    }

    /**
     * Polls one instance from {@code t0} until it shows {@code expected} (the shown value's first word) and,
     * with a probe, answers as {@code answered}; at most the drill's wait. The value and the probe are
     * polled side by side, so a slow probe does not delay seeing the value (each time is when the answer
     * that showed it came back: an upper bound, off by at most one poll).
     */
    private Effect watch(InstanceApi api, String phase, String expected, Read read, Probe probe,
                         Predicate<String> answered, long t0) throws InterruptedException {
        String[] answer = {""};
        Duration[] behaviourAt = {null};
        Thread prober = probe == null ? null : Thread.ofVirtual().start(() -> {
            try {
                while (since(t0).compareTo(options.watch()) < 0) {
                    answer[0] = probe.answer();
                    if (answered.test(answer[0])) {
                        behaviourAt[0] = since(t0);
                        return;
                    }
                    Thread.sleep(POLL);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Duration valueAt = null;
        String shown = "";
        try {
            while (since(t0).compareTo(options.watch()) < 0) {
                try {
                    shown = read.read();
                } catch (IOException e) {
                    shown = InstanceApi.NO_ANSWER;
                }
                if (firstWord(shown).equalsIgnoreCase(expected)) {
                    valueAt = since(t0);
                    break;
                }
                Thread.sleep(POLL);
            }
        } finally {
            if (prober != null) {
                prober.join();
            }
        }
        return new Effect(api.base().toString(), phase, expected, shown, Optional.ofNullable(valueAt), probe != null,
                Optional.ofNullable(behaviourAt[0]), answer[0], Optional.empty());
    }

    private static String firstWord(String shown) {
        String s = shown.strip();
        int space = s.indexOf(' ');
        String word = space < 0 ? s : s.substring(0, space);
        return word.endsWith(":") ? word.substring(0, word.length() - 1) : word;
    }

    private Duration since(long t0) {
        return Duration.ofNanos(nanos.getAsLong() - t0);
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---- the file, and putting everything back

    /** Writes a flipped file; the moment it is in place. */
    private long writeFlip(String text) throws IOException {
        synchronized (writing) {
            if (stopping) {
                throw new IllegalStateException("the drill is being stopped");
            }
            fileFlipped = true;
            file.write(text);
            return nanos.getAsLong();
        }
    }

    /** Puts the original bytes back; the moment they are in place. */
    private long writeOriginal() throws IOException {
        synchronized (writing) {
            file.write(original);
            fileFlipped = false;
            return nanos.getAsLong();
        }
    }

    /** The file as it was, and every instance the drill halted resumed. */
    private void restore() {
        synchronized (writing) {
            if (fileFlipped) {
                try {
                    writeOriginal();
                } catch (IOException e) {
                    note("COULD NOT PUT THE SWITCHES FILE BACK (" + e + "): restore " + file + " by hand");
                }
            }
        }
        for (InstanceApi api : List.copyOf(haltedByDrill)) {
            try {
                HttpResponse<String> answer = api.patient(PATIENT).resume();
                if (answer.statusCode() == 200) {
                    haltedByDrill.remove(api);
                } else {
                    note(api.base() + " IS LEFT HALTED: resume answered " + answer.statusCode() + " " + answer.body());
                }
            } catch (IOException | InterruptedException e) {
                note(api.base() + " IS LEFT HALTED: resume failed: " + e);
            }
        }
    }

    /** The shutdown hook: an interrupted drill (Ctrl-C, SIGTERM) still puts everything back. */
    private void restoreOnExit() {
        stopping = true;
        restore();
        purgeProbeRehearsal();
    }
}
