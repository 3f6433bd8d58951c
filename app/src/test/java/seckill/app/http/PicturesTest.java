package seckill.app.http;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/** What the picture folder serves (issue #33): only small PNG, JPEG and WebP files by their bytes, only from the folder. */
class PicturesTest {

    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 'I', 'H'};
    private static final byte[] JPEG = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0, 0, 0x10, 'J', 'F', 'I', 'F',
            0, 1, 1, 0};
    private static final byte[] WEBP = {'R', 'I', 'F', 'F', 0x10, 0, 0, 0, 'W', 'E', 'B', 'P', 'V', 'P', '8', ' '};

    @TempDir
    Path root;

    @Test
    void servesAPictureOfItsTypeByItsBytesWithAContentETag() throws Exception {
        Path folder = Files.createDirectories(root.resolve("pictures"));
        Files.write(folder.resolve("a.png"), PNG);
        Files.write(folder.resolve("b.jpg"), JPEG);
        Files.write(folder.resolve("c.webp"), WEBP);
        Pictures pictures = new Pictures(folder.toString(), 1024);
        assertThat(pictures.find("a.png").orElseThrow().type(), is("image/png"));
        assertThat(pictures.find("b.jpg").orElseThrow().type(), is("image/jpeg"));
        assertThat(pictures.find("c.webp").orElseThrow().type(), is("image/webp"));
        assertThat(pictures.problemWith("a.png").isPresent(), is(false));
        String etag = pictures.find("a.png").orElseThrow().etag();
        // replaced on disk: read again, another ETag
        Files.write(folder.resolve("a.png"), concat(PNG, new byte[] {1, 2, 3}));
        Files.setLastModifiedTime(folder.resolve("a.png"), java.nio.file.attribute.FileTime.fromMillis(1_000));
        assertThat(pictures.find("a.png").orElseThrow().etag(), not(etag));
    }

    @Test
    void refusesWhatIsNoPictureOrNotInTheFolder() throws Exception {
        Path folder = Files.createDirectories(root.resolve("pictures"));
        Files.writeString(folder.resolve("script.png"), "<script>alert(1)</script>");
        Files.write(folder.resolve("jpeg.png"), JPEG);   // a JPEG named .png
        Files.write(folder.resolve("big.png"), concat(PNG, new byte[2048]));
        Files.write(root.resolve("outside.png"), PNG);
        Files.createSymbolicLink(folder.resolve("link.png"), root.resolve("outside.png"));
        Pictures pictures = new Pictures(folder.toString(), 1024);
        for (String name : new String[] {"script.png", "jpeg.png", "big.png", "link.png", "../outside.png",
                "missing.png", "pictures/../outside.png"}) {
            assertThat(name, pictures.find(name).isPresent(), is(false));
            assertThat(name, pictures.problemWith(name).isPresent(), is(true));
        }
        assertThat(new Pictures(" ", 1024).problemWith("a.png").orElseThrow(), containsString("seckill.pictures.dir"));
        assertThat(new Pictures(" ", 1024).find("a.png").isPresent(), is(false));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }
}
