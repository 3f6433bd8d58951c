package seckill.drill.switches;

import java.util.Optional;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import seckill.client.TokenMint;

/**
 * {@code java -jar seckill.jar drill switches ...}: the switch drill ({@link SwitchDrillOptions#USAGE}).
 * Prints the report and writes it as JSON and text. Exit 0 when every switch took effect within the
 * bound on every instance, 1 when one did not (or the drill could not be carried out), 2 on bad
 * options, 3 when it refused because a sale is open.
 */
public final class SwitchCommand {

    private SwitchCommand() {
    }

    public static int run(String[] args) {
        SwitchDrillOptions options;
        try {
            options = SwitchDrillOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("drill switches: " + e.getMessage());
            System.err.println(SwitchDrillOptions.USAGE);
            return 2;
        }
        Config config = ConfigProvider.getConfig();
        String token = options.adminToken()
                .or(() -> config.getOptionalValue("seckill.admin.token", String.class))
                .orElse(seckill.dev.api.DevSecrets.ADMIN_TOKEN);
        try {
            SwitchReport report = new SwitchDrill(options, token, mint(options, config), System.out, System::nanoTime).run();
            report.write(options.report());
            System.out.print(report.text());
            System.out.println("report        " + options.report() + ".json, .txt");
            return report.exitCode();
        } catch (SwitchDrill.Refused e) {
            System.err.println("drill switches: refused: " + e.getMessage());
            return 3;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            System.err.println("drill switches: interrupted (the switches file was put back)");
            return 1;
        } catch (Exception e) {
            System.err.println("drill switches: failed: " + e);
            e.printStackTrace();
            return 1;
        }
    }

    /** The probes' buyer tokens: {@code --identity-key}, else the configured identity keys (dev mode: the dev key). */
    private static Optional<TokenMint> mint(SwitchDrillOptions options, Config config) {
        String issuer = config.getOptionalValue("seckill.identity.issuer", String.class).orElse("seckill");
        return options.identityKey()
                .or(() -> config.getOptionalValue("seckill.identity.hmac-keys", String.class))
                .or(() -> Optional.of("dev=" + seckill.dev.api.DevSecrets.IDENTITY_KEY))
                .map(keys -> TokenMint.of(keys, issuer, config.getOptionalValue("seckill.identity.audience", String.class)));
    }
}
