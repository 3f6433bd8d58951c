package seckill.system.edge;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import seckill.system.MachineTools;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/**
 * Issue #32, item 2: the shipped {@code config/nginx/nginx.conf}, as it is in the repository (no path
 * rewritten, no option given beyond {@code -c}), passes {@code nginx -t} on Debian's nginx as shipped.
 * A stock Debian has no {@code /var/cache/nginx}: a cache path under it failed with
 * {@code mkdir() "/var/cache/nginx/seckill" failed}. {@code nginx -t} starts no server.
 */
class ShippedEdgeConfigTest {

    private static final Path NGINX = MachineTools.NGINX;
    private static final Path CONFIG = Path.of("..", "config", "nginx", "nginx.conf");

    @Test
    void debiansNginxAcceptsTheShippedConfigAsItIs() throws Exception {
        MachineTools.requireNginx();
        MachineTools.require("root".equals(System.getProperty("user.name")),
                "nginx -t of the shipped file opens its logs and cache under /var as the operator (root) would:"
                        + " run as root");
        Path config = CONFIG.toAbsolutePath().normalize();
        Process check = new ProcessBuilder(NGINX.toString(), "-t", "-c", config.toString())
                .redirectErrorStream(true).start();
        check.getOutputStream().close();
        String out = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat("nginx -t finished", check.waitFor(30, TimeUnit.SECONDS), is(true));
        assertThat(out, check.exitValue(), is(0));
        assertThat(out, containsString("configuration file " + config + " syntax is ok"));
        assertThat(out, containsString("configuration file " + config + " test is successful"));
    }
}
