package seckill.chaos.api;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Appends history lines to one file, one JSON object a line, from any thread. Each line is flushed
 * as it is written: a runner that dies mid-run leaves a history that can still be read and judged up
 * to its last line.
 */
public final class HistoryWriter implements AutoCloseable {

    private final BufferedWriter out;

    public HistoryWriter(Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the history to " + file, e);
        }
    }

    public synchronized void write(HistoryEntry entry) {
        try {
            out.write(HistoryLines.write(entry));
            out.newLine();
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to the history", e);
        }
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
