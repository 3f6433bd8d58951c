package seckill.drill.api;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import seckill.ledger.api.LedgerAudit;

/**
 * {@code java -jar seckill.jar drill rehearse ...}: the ramp against the deployment at {@code --url}
 * (see {@link RampOptions#USAGE}). No service starts in this process; Redis ({@code seckill.redis.uri})
 * and the ledger ({@code seckill.db.url}; with {@code --rehearsal} the shadow database,
 * {@code seckill.rehearsal.db.url}, user and password defaulting to the ledger's) are read when configured, read-only.
 * Exit code 0 when the ramp ran (whatever gave way: that is its finding), 1 when it could not be carried out, 2 on
 * bad options, 3 when the deployment refused to launch the rehearsal ({@code 501}: nothing was created).
 */
public final class RampCommand {

    private RampCommand() {
    }

    public static int run(String[] args) {
        RampOptions options;
        try {
            options = RampOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("drill rehearse: " + e.getMessage());
            System.err.println(RampOptions.USAGE);
            return 2;
        }
        Config config = ConfigProvider.getConfig();
        String token = options.adminToken()
                .or(() -> config.getOptionalValue("seckill.admin.token", String.class))
                .orElse(seckill.dev.api.DevSecrets.ADMIN_TOKEN);
        Optional<String> redis = config.getOptionalValue("seckill.redis.uri", String.class).filter(u -> !u.isBlank());
        String dbKeys = options.rehearsal() ? "seckill.rehearsal.db." : "seckill.db.";
        Optional<String> dbUrl = config.getOptionalValue(dbKeys + "url", String.class).filter(u -> !u.isBlank());
        Connection db = null;
        try {
            if (dbUrl.isPresent()) {
                db = DriverManager.getConnection(dbUrl.get(),
                        config.getOptionalValue(dbKeys + "user", String.class)
                                .or(() -> config.getOptionalValue("seckill.db.user", String.class)).orElse("root"),
                        config.getOptionalValue(dbKeys + "password", String.class)
                                .or(() -> config.getOptionalValue("seckill.db.password", String.class)).orElse(""));
                db.setReadOnly(true);
            }
            Connection reader = db;
            Optional<LedgerAudit> ledger = Optional.ofNullable(reader)
                    .map(c -> seckill.drill.ledger.LedgerOverJdbc.audit(c));
            new Ramp(options, token, redis, ledger, System.out).run();
            return 0;
        } catch (Ramp.RehearsalRefused e) {
            System.err.println("drill rehearse: refused: " + e.getMessage());
            return 3;
        } catch (Exception e) {
            System.err.println("drill rehearse: failed: " + e);
            e.printStackTrace();
            return 1;
        } finally {
            if (db != null) {
                try {
                    db.close();
                } catch (SQLException ignored) {
                    // closing a read-only connection
                }
            }
        }
    }

}
