package seckill.drill.switches;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Options of {@code seckill.jar drill switches} ({@link #USAGE}).
 *
 * @param instances    every instance's address
 * @param adminToken   the admin token (else {@code seckill.admin.token}, else the dev token)
 * @param switchesFile the switches file the instances read
 * @param bound        how soon a flip must show on every instance
 * @param resumeBound  how soon an instance halted through the admin endpoint must sell again once resumed (a
 *                     resume reconciles every live SKU first, so it is no re-read of a file)
 * @param watch        how long one flip is watched before it counts as not taken
 * @param identityKey  the key the probes' buyer tokens are signed with (else the configured one)
 * @param probes       whether to probe purchases at all
 * @param force        run although a sale is open
 * @param report       where the report goes ({@code <report>.json} and {@code <report>.txt})
 * @param rehearsal    the probes buy in a shadow sale the drill launches ({@code "rehearsal": true}) and purges at
 *                     its end, each probe with the edge's signed mark (docs/rehearsal.md)
 * @param edgeKeyFile  with {@code rehearsal}: the file holding the edge's key ({@code seckill.rehearsal.edge-key})
 */
public record SwitchDrillOptions(List<URI> instances, Optional<String> adminToken, Path switchesFile, Duration bound,
                                 Duration resumeBound, Duration watch, Optional<String> identityKey, boolean probes, boolean force,
                                 Path report, boolean rehearsal, Optional<Path> edgeKeyFile) {

    /** The bound unless {@code --bound-millis}: the switches are re-read twice a second, so 2 s is four chances. */
    public static final Duration DEFAULT_BOUND = Duration.ofSeconds(2);
    /** The resume's bound unless {@code --resume-bound-millis}: it reconciles every live SKU before it answers. */
    public static final Duration DEFAULT_RESUME_BOUND = Duration.ofSeconds(5);

    public static final String USAGE = """
            Usage: seckill.jar drill switches --instance URL [--instance URL ...] --switches-file PATH
                   [--admin-token TOKEN] [--bound-millis MS] [--resume-bound-millis MS] [--wait-seconds S]
                   [--identity-key ID=KEY] [--no-probes] [--force] [--report PREFIX]
                   [--rehearsal --edge-key-file FILE]
            Flips each hot switch a sale day relies on, one at a time, in the switches file every instance
            reads (halt, global rate, buyer rate, sold-out threshold, ordering pace, queue on/off, queue
            rate) and the admin halt/resume of each instance, and times on every instance how long until
            the flip shows: in the value GET /api/v1/admin/switches (or /sales) shows and, for halt, queue
            on and the global rate, in a probe purchase to an activity of the drill's own (created unless
            --no-probes: one unit, not for sale, each probe asks two). Each switch is then put back and that
            is timed too; the file ends byte for byte as it was, also when the drill fails or is stopped.
            A flip that takes longer than the bound (default 2000 ms) on any instance fails the drill; a
            resume through the endpoint, which reconciles first, has its own (default 5000 ms).
            Refuses to run while any activity's sale window is open, unless --force (halting halts sales).
            --wait-seconds (default 10): how long one flip is watched. Report: PREFIX.json and PREFIX.txt
            (default switch-drill-<time>). --rehearsal: the probe activity is a shadow sale (docs/rehearsal.md),
            launched with "rehearsal": true, every probe signed with the edge's mark (key in --edge-key-file),
            purged (DELETE) at the end: nothing is left behind. Exit 0: every switch within the bound on every
            instance; 1: a failure; 2: bad options; 3: refused (a sale is open, or the deployment launches no
            rehearsal: 501).""";

    public static SwitchDrillOptions parse(String[] args) {
        List<URI> instances = new ArrayList<>();
        String token = null;
        Path file = null;
        Duration bound = DEFAULT_BOUND;
        Duration resumeBound = DEFAULT_RESUME_BOUND;
        Duration wait = Duration.ofSeconds(10);
        String identity = null;
        boolean probes = true;
        boolean force = false;
        boolean rehearsal = false;
        Path edgeKeyFile = null;
        Path report = null;
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            if (name.equals("--force")) {
                force = true;
                continue;
            }
            if (name.equals("--rehearsal")) {
                rehearsal = true;
                continue;
            }
            if (name.equals("--no-probes")) {
                probes = false;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(name + " needs a value");
            }
            String value = args[++i];
            try {
                switch (name) {
                    case "--instance" -> instances.add(instance(value));
                    case "--admin-token" -> token = value;
                    case "--switches-file" -> file = Path.of(value);
                    case "--bound-millis" -> bound = Duration.ofMillis(Long.parseLong(value));
                    case "--resume-bound-millis" -> resumeBound = Duration.ofMillis(Long.parseLong(value));
                    case "--wait-seconds" -> wait = Duration.ofSeconds(Long.parseLong(value));
                    case "--identity-key" -> identity = value;
                    case "--report" -> report = Path.of(value);
                    case "--edge-key-file" -> edgeKeyFile = Path.of(value);
                    default -> throw new IllegalArgumentException("unknown option " + name);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + ": not a number: " + value);
            }
        }
        if (instances.isEmpty()) {
            throw new IllegalArgumentException("give every instance with --instance URL (the switch must show on each)");
        }
        if (file == null) {
            throw new IllegalArgumentException("--switches-file is required (the file the instances read)");
        }
        if (bound.isNegative() || bound.isZero() || resumeBound.isNegative() || resumeBound.isZero()) {
            throw new IllegalArgumentException("--bound-millis and --resume-bound-millis must be positive");
        }
        if (wait.compareTo(bound) < 0 || wait.compareTo(resumeBound) < 0) {
            throw new IllegalArgumentException("--wait-seconds must be at least each bound");
        }
        if (rehearsal && edgeKeyFile == null) {
            throw new IllegalArgumentException("--rehearsal needs --edge-key-file FILE (the edge's key signs every probe's mark)");
        }
        if (!rehearsal && edgeKeyFile != null) {
            throw new IllegalArgumentException("--edge-key-file goes with --rehearsal");
        }
        if (report == null) {
            report = Path.of("switch-drill-" + java.time.Instant.now().toString().replace(":", "").replaceAll("\\..*", ""));
        }
        return new SwitchDrillOptions(List.copyOf(instances), Optional.ofNullable(token), file, bound, resumeBound, wait,
                Optional.ofNullable(identity), probes, force, report, rehearsal, Optional.ofNullable(edgeKeyFile));
    }

    private static URI instance(String url) {
        URI uri = URI.create(url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
        if (uri.getScheme() == null || !uri.getScheme().startsWith("http") || uri.getHost() == null) {
            throw new IllegalArgumentException("--instance needs an http(s) URL, got " + url);
        }
        return uri;
    }
}
