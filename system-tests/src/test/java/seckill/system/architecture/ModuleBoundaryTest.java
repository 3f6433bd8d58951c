package seckill.system.architecture;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/**
 * Proves the module boundary with javac itself: a module that reads {@code seckill.reservation}
 * compiles against its api package, and the same module reaching into an internal package is
 * rejected.
 */
class ModuleBoundaryTest {

    private static final List<String> ON_MODULE_PATH = List.of(
            "seckill.reservation.api.ReservationId",
            // read transitively: the reservation api names seckill.redis.World (issue #34)
            "seckill.redis.World",
            "redis.clients.jedis.UnifiedJedis",
            "jakarta.enterprise.context.ApplicationScoped",
            "jakarta.enterprise.lang.model.AnnotationInfo",
            "jakarta.interceptor.Interceptor",
            "jakarta.el.ELContext",
            "jakarta.inject.Inject",
            "jakarta.annotation.PostConstruct",
            "org.eclipse.microprofile.config.Config");

    @Test
    void theApiPackageIsVisible() throws Exception {
        Compilation result = compileProbe("seckill.reservation.api.ReservationId");
        assertThat(result.output, result.ok, is(true));
    }

    @Test
    void anInternalPackageIsRejected() throws Exception {
        Compilation result = compileProbe("seckill.reservation.redis.StockBuckets");
        assertThat(result.ok, is(false));
        assertThat(result.output, containsString("declared in module seckill.reservation, which does not export it"));
    }

    private record Compilation(boolean ok, String output) {
    }

    private static Compilation compileProbe(String importedClass) throws IOException, URISyntaxException {
        Path dir = Files.createTempDirectory("module-probe");
        Path src = dir.resolve("src/probe");
        Files.createDirectories(src.resolve("probe"));
        Files.writeString(src.resolve("module-info.java"), "module probe { requires seckill.reservation; }");
        Files.writeString(src.resolve("probe/Probe.java"), """
                package probe;
                import %s;
                public class Probe { Class<?> reached = %s.class; }
                """.formatted(importedClass, importedClass.substring(importedClass.lastIndexOf('.') + 1)));
        List<String> modulePath = new ArrayList<>();
        for (String className : ON_MODULE_PATH) {
            try {
                Class<?> type = Class.forName(className);
                modulePath.add(Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("test classpath lacks " + className, e);
            }
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        // an explicit, empty class path: javac would otherwise see this JVM's whole class path
        List<String> args = List.of("-d", dir.resolve("out").toString(), "-classpath", dir.resolve("out").toString(),
                "--module-path", modulePath.stream().distinct().collect(Collectors.joining(java.io.File.pathSeparator)),
                src.resolve("module-info.java").toString(), src.resolve("probe/Probe.java").toString());
        boolean ok = javac.run(null, out, out, args.toArray(String[]::new)) == 0;
        return new Compilation(ok, out.toString(java.nio.charset.StandardCharsets.UTF_8));
    }
}
