package seckill.drill.switches;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;

/**
 * The switches file the instances read. Every write is whole and atomic: the new text goes to a
 * temporary file beside it (with the file's permissions) and is then renamed over it, so an instance
 * re-reading it sees the old text or the new, never half of one.
 */
public final class SwitchesFile {

    private final Path path;

    public SwitchesFile(Path path) {
        this.path = path.toAbsolutePath();
    }

    public Path path() {
        return path;
    }

    public byte[] bytes() throws IOException {
        return Files.readAllBytes(path);
    }

    public String text() throws IOException {
        return new String(bytes(), StandardCharsets.UTF_8);
    }

    public void write(String text) throws IOException {
        write(text.getBytes(StandardCharsets.UTF_8));
    }

    /** Puts {@code content} in place: a temporary file beside it, then an atomic rename over it. */
    public void write(byte[] content) throws IOException {
        Path temp = path.resolveSibling("." + path.getFileName() + ".drill-" + ProcessHandle.current().pid() + ".tmp");
        try {
            Files.write(temp, content);
            if (Files.getFileAttributeView(path, PosixFileAttributeView.class) != null && Files.exists(path)) {
                Files.setPosixFilePermissions(temp, Files.getPosixFilePermissions(path));
            }
            try {
                Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("cannot rename atomically over " + path + ": " + e.getMessage(), e);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
