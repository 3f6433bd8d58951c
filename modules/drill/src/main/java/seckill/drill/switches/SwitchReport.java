package seckill.drill.switches;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;

/**
 * What a switch drill found: per switch, per instance, the time to effect of the flip and of putting it
 * back, each judged against the bound. Written as JSON ({@link #json}) and as text ({@link #text}).
 */
public record SwitchReport(Instant startedAt, Instant endedAt, String switchesFile, List<URI> instances, Duration bound,
                           Duration resumeBound, Duration watch, Optional<Long> probeActivity, List<SwitchResult> switches,
                           List<String> notes) {

    /** One switch: how it was flipped ({@code file} or {@code endpoint}), from what to what, and its effects. */
    public record SwitchResult(String key, String how, String original, String flipped, List<Effect> effects) {

        /** The bound {@code effect} is judged by: the resume's for an endpoint's restore, else the switches'. */
        public Duration bound(Effect effect, Duration bound, Duration resumeBound) {
            return how.equals("endpoint") && effect.phase().equals("restore") ? resumeBound : bound;
        }

        public Effect.Verdict verdict(Duration bound, Duration resumeBound) {
            if (effects.stream().anyMatch(e -> e.verdict(bound(e, bound, resumeBound)) == Effect.Verdict.FAIL)) {
                return Effect.Verdict.FAIL;
            }
            return effects.stream().allMatch(e -> e.verdict(bound) == Effect.Verdict.SKIPPED) ? Effect.Verdict.SKIPPED
                    : Effect.Verdict.PASS;
        }
    }

    /** PASS when no switch failed on any instance. */
    public boolean passed() {
        return switches.stream().noneMatch(s -> s.verdict(bound, resumeBound) == Effect.Verdict.FAIL);
    }

    public int exitCode() {
        return passed() ? 0 : 1;
    }

    /** The slowest time to effect measured (value or behaviour), over every switch and instance. */
    public Optional<Duration> slowest() {
        return switches.stream().flatMap(s -> s.effects().stream())
                .flatMap(e -> java.util.stream.Stream.of(e.value(), e.behaviour()))
                .flatMap(Optional::stream).max(Duration::compareTo);
    }

    public String json() {
        JsonArrayBuilder all = Json.createArrayBuilder();
        for (SwitchResult s : switches) {
            JsonArrayBuilder effects = Json.createArrayBuilder();
            for (Effect e : s.effects()) {
                Duration bound = s.bound(e, this.bound, resumeBound);
                JsonObjectBuilder effect = Json.createObjectBuilder()
                        .add("instance", e.instance())
                        .add("phase", e.phase())
                        .add("boundMillis", bound.toMillis())
                        .add("verdict", e.verdict(bound).name());
                if (e.skipped().isPresent()) {
                    effect.add("skipped", e.skipped().get());
                } else {
                    effect.add("expected", e.expected()).add("shown", e.shown());
                    e.value().ifPresentOrElse(v -> effect.add("valueMillis", v.toMillis()), () -> effect.addNull("valueMillis"));
                    effect.add("probed", e.probed());
                    if (e.probed()) {
                        e.behaviour().ifPresentOrElse(b -> effect.add("behaviourMillis", b.toMillis()),
                                () -> effect.addNull("behaviourMillis"));
                        effect.add("answer", e.answer());
                    }
                    e.failure(bound).ifPresent(f -> effect.add("failure", f));
                }
                effects.add(effect);
            }
            all.add(Json.createObjectBuilder()
                    .add("switch", s.key())
                    .add("how", s.how())
                    .add("original", s.original())
                    .add("flipped", s.flipped())
                    .add("verdict", s.verdict(bound, resumeBound).name())
                    .add("effects", effects));
        }
        JsonArrayBuilder urls = Json.createArrayBuilder();
        instances.forEach(u -> urls.add(u.toString()));
        JsonArrayBuilder remarks = Json.createArrayBuilder();
        notes.forEach(remarks::add);
        JsonObjectBuilder json = Json.createObjectBuilder()
                .add("verdict", passed() ? "PASS" : "FAIL")
                .add("startedAt", startedAt.toString())
                .add("endedAt", endedAt.toString())
                .add("switchesFile", switchesFile)
                .add("instances", urls)
                .add("boundMillis", bound.toMillis())
                .add("resumeBoundMillis", resumeBound.toMillis())
                .add("waitMillis", watch.toMillis());
        slowest().ifPresent(d -> json.add("slowestMillis", d.toMillis()));
        probeActivity.ifPresentOrElse(a -> json.add("probeActivity", a), () -> json.addNull("probeActivity"));
        return json.add("switches", all).add("notes", remarks).build().toString();
    }

    public String text() {
        StringBuilder text = new StringBuilder();
        text.append("==== switch drill ====\n");
        text.append("file          ").append(switchesFile).append('\n');
        text.append("instances     ").append(instances).append('\n');
        text.append("bound         ").append(bound.toMillis()).append(" ms; a resume through the endpoint ")
                .append(resumeBound.toMillis()).append(" ms (watched up to ").append(watch.toSeconds()).append(" s)\n");
        probeActivity.ifPresent(a -> text.append(seckill.redis.World.of(a) == seckill.redis.World.REHEARSAL
                ? "probe         rehearsal " : "probe         activity ").append(a).append('\n'));
        text.append(String.format("%-46s %-22s %-8s %9s %10s  %-7s %s%n", "switch", "instance", "phase", "value ms",
                "behaviour", "verdict", "detail"));
        for (SwitchResult s : switches) {
            String label = s.key() + (s.flipped().isEmpty() ? "" : " " + s.original() + "->" + s.flipped());
            for (Effect e : s.effects()) {
                Duration bound = s.bound(e, this.bound, resumeBound);
                String detail = e.skipped().orElseGet(() -> e.failure(bound)
                        .orElse(e.probed() ? "answered " + e.answer() : "value only"));
                text.append(String.format("%-46s %-22s %-8s %9s %10s  %-7s %s%n", label, host(e.instance()), e.phase(),
                        e.value().map(v -> Long.toString(v.toMillis())).orElse(e.skipped().isPresent() ? "" : "-"),
                        e.probed() ? e.behaviour().map(v -> Long.toString(v.toMillis())).orElse("-") : "",
                        e.verdict(bound), detail));
            }
        }
        slowest().ifPresent(d -> text.append("slowest       ").append(d.toMillis()).append(" ms\n"));
        notes.forEach(n -> text.append("note          ").append(n).append('\n'));
        text.append("verdict       ").append(passed() ? "PASS (every switch within the bound on every instance)"
                : "FAIL").append('\n');
        return text.toString();
    }

    private static String host(String instance) {
        return instance.replaceFirst("^https?://", "");
    }

    /** Writes {@code <prefix>.json} and {@code <prefix>.txt}. */
    public void write(Path prefix) throws IOException {
        Path parent = prefix.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(prefix.resolveSibling(prefix.getFileName() + ".json"), json());
        Files.writeString(prefix.resolveSibling(prefix.getFileName() + ".txt"), text());
    }
}
