package seckill.app.http;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import seckill.ledger.api.catalogue.SkuLine;

/**
 * SKU pictures (issue #33): files an operator puts in one folder ({@code seckill.pictures.dir}), named
 * by a SKU's {@code picture}. Chosen over uploads: the service never writes a file, so no request can
 * fill a disk or plant content; it only reads a file whose name is a plain file name (never a path:
 * {@link SkuLine#pictureProblem}), that resolves inside the folder (a link out of it is refused), is
 * at most {@code seckill.pictures.max-bytes} and is a PNG, JPEG or WebP by its first bytes, matching
 * its extension. Read once and kept by content hash (the {@code ETag}); a file changed on disk is read
 * again. Every instance needs the same folder (a shared volume, or the same files in each image).
 */
@ApplicationScoped
public class Pictures {

    /** A picture ready to serve. */
    record Picture(byte[] bytes, String type, String etag) {
    }

    private record Loaded(long modified, long size, Picture picture) {
    }

    private final Optional<Path> folder;
    private final long maxBytes;
    private final Map<String, Loaded> loaded = new ConcurrentHashMap<>();

    @Inject
    Pictures(@ConfigProperty(name = "seckill.pictures.dir", defaultValue = " ") String folder,
             @ConfigProperty(name = "seckill.pictures.max-bytes", defaultValue = "524288") long maxBytes) {
        this.folder = folder.isBlank() ? Optional.empty() : Optional.of(Path.of(folder.trim()).toAbsolutePath());
        this.maxBytes = maxBytes;
    }

    /** Why {@code name} cannot be a SKU's picture on this instance, if it cannot. */
    Optional<String> problemWith(String name) {
        Optional<String> shape = SkuLine.pictureProblem(name);
        if (shape.isPresent()) {
            return shape;
        }
        if (folder.isEmpty()) {
            return Optional.of("cannot be set: no picture folder is configured (seckill.pictures.dir)");
        }
        try {
            return load(name).isPresent() ? Optional.empty()
                    : Optional.of("must name a PNG, JPEG or WebP file of at most " + maxBytes
                    + " bytes in the picture folder, its type matching its extension");
        } catch (IOException e) {
            return Optional.of("could not be read from the picture folder");
        }
    }

    /** The picture, when {@code name} is one this instance serves. */
    Optional<Picture> find(String name) {
        if (folder.isEmpty() || SkuLine.pictureProblem(name).isPresent()) {
            return Optional.empty();
        }
        try {
            return load(name);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private Optional<Picture> load(String name) throws IOException {
        Path dir = folder.orElseThrow();
        Path file = dir.resolve(name).normalize();
        if (!file.getParent().equals(dir) || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        long modified = attributes.lastModifiedTime().toMillis();
        long size = attributes.size();
        Loaded known = loaded.get(name);
        if (known != null && known.modified == modified && known.size == size) {
            return Optional.of(known.picture);
        }
        if (size > maxBytes || size < 12) {
            return Optional.empty();
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            bytes = in.readNBytes((int) maxBytes + 1);
        }
        if (bytes.length > maxBytes) {
            return Optional.empty();
        }
        Optional<String> type = typeOf(bytes).filter(t -> t.equals(typeOfName(name)));
        if (type.isEmpty()) {
            return Optional.empty();
        }
        Picture picture = new Picture(bytes, type.get(), "\"" + digest(bytes) + "\"");
        loaded.put(name, new Loaded(modified, size, picture));
        return Optional.of(picture);
    }

    /** The type the first bytes say: PNG's signature, JPEG's SOI marker, WebP's RIFF....WEBP header. */
    static Optional<String> typeOf(byte[] b) {
        if (b.length >= 8 && (b[0] & 0xFF) == 0x89 && b[1] == 'P' && b[2] == 'N' && b[3] == 'G' && b[4] == 0x0D
                && b[5] == 0x0A && b[6] == 0x1A && b[7] == 0x0A) {
            return Optional.of("image/png");
        }
        if (b.length >= 3 && (b[0] & 0xFF) == 0xFF && (b[1] & 0xFF) == 0xD8 && (b[2] & 0xFF) == 0xFF) {
            return Optional.of("image/jpeg");
        }
        if (b.length >= 12 && b[0] == 'R' && b[1] == 'I' && b[2] == 'F' && b[3] == 'F' && b[8] == 'W' && b[9] == 'E'
                && b[10] == 'B' && b[11] == 'P') {
            return Optional.of("image/webp");
        }
        return Optional.empty();
    }

    private static String typeOfName(String name) {
        String extension = name.substring(name.lastIndexOf('.') + 1);
        return switch (extension) {
            case "png" -> "image/png";
            case "webp" -> "image/webp";
            default -> "image/jpeg";
        };
    }

    private static String digest(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
