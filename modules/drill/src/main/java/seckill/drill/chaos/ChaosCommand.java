package seckill.drill.chaos;

import java.time.Clock;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import seckill.dev.api.DevServers;
import seckill.chaos.api.Verdict;

/**
 * {@code java -jar seckill.jar drill chaos ...}: a seeded chaos run of several service instances
 * (see {@link ChaosOptions#USAGE}). Exit code 0 when the checker found every promise held, 1 on a
 * violation or a run that could not be carried out, 2 on bad options.
 */
public final class ChaosCommand {

    private ChaosCommand() {
    }

    public static int run(String[] args) {
        ChaosOptions options;
        try {
            options = ChaosOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("drill chaos: " + e.getMessage());
            System.err.println(ChaosOptions.USAGE);
            return 2;
        }
        Config config = ConfigProvider.getConfig();
        DevServers embedded = null;
        try {
            String url = config.getOptionalValue("seckill.db.url", String.class).filter(u -> !u.isBlank()).orElse(null);
            ChaosRun.Database database;
            if (url == null) {
                embedded = new DevServers(false);
                database = new ChaosRun.Database(embedded.jdbcUrl(), "root", "");
            } else {
                database = new ChaosRun.Database(url, config.getOptionalValue("seckill.db.user", String.class).orElse("root"),
                        config.getOptionalValue("seckill.db.password", String.class).orElse(""));
            }
            Verdict verdict = new ChaosRun(options, options.shape(), database, Clock.systemUTC(), System::nanoTime,
                    System.out).run();
            return verdict.exitCode();
        } catch (Exception e) {
            System.err.println("drill chaos: failed: " + e);
            e.printStackTrace();
            return 1;
        } finally {
            if (embedded != null) {
                embedded.stop();
            }
        }
    }
}
