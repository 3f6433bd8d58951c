package seckill.chaos.api;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A chaos run's history, read back from its file (or built in memory by a test): the lines in the
 * order they were written, with typed views of the parts the checker asks for.
 */
public record History(List<HistoryEntry> entries) {

    public History {
        entries = List.copyOf(entries);
    }

    /** Reads a history file; a line that is not a history entry is an error naming its number. */
    public static History read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the history " + file, e);
        }
        List<HistoryEntry> entries = new java.util.ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            try {
                entries.add(HistoryLines.read(lines.get(i)));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(file + " line " + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        return new History(entries);
    }

    public Optional<HistoryEntry.RunStarted> run() {
        return of(HistoryEntry.RunStarted.class).stream().findFirst();
    }

    public Optional<HistoryEntry.ActivityLaunched> activity() {
        return of(HistoryEntry.ActivityLaunched.class).stream().findFirst();
    }

    public Optional<HistoryEntry.Healed> healed() {
        return of(HistoryEntry.Healed.class).stream().findFirst();
    }

    /** The last shelf reading written to the history, if any. */
    public Optional<HistoryEntry.ShelfRead> shelf() {
        return of(HistoryEntry.ShelfRead.class).stream().reduce((a, b) -> b);
    }

    public List<HistoryEntry.Operation> operations() {
        return of(HistoryEntry.Operation.class);
    }

    public List<HistoryEntry.FaultEvent> faults() {
        return of(HistoryEntry.FaultEvent.class);
    }

    public List<HistoryEntry.Planned> plan() {
        return of(HistoryEntry.Planned.class);
    }

    private <T extends HistoryEntry> List<T> of(Class<T> type) {
        return entries.stream().filter(type::isInstance).map(type::cast).toList();
    }
}
