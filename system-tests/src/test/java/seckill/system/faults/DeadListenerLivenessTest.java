package seckill.system.faults;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import seckill.dev.api.DevServers;
import seckill.system.SaleFixture;
import seckill.system.SecondInstance;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/**
 * Review of #36 item 3: Helidon ends a listener for good when an accept fails, and since health
 * moved to the management socket, liveness there stayed UP over a dead service port, so nothing
 * restarted the instance. An instance with the deployable's layout runs under
 * {@code prlimit --nofile=1024} with an explicit connection cap far above it; idle connections are
 * opened until an accept fails for want of files and the service port stops listening. Liveness on
 * the management socket must then say DOWN, naming the service port.
 */
class DeadListenerLivenessTest extends ServiceTest {

    private static final int OPEN_FILES = 1_024;
    private static final int MOST_SOCKETS = 2_000;

    @Inject
    DevServers devServers;

    @Test
    void aServicePortThatStoppedListeningIsNotAlive() throws Exception {
        Map<String, String> stores = SecondInstance.storesOf(config, devServers);
        try (SecondInstance second = SecondInstance.startWithManagementSocketAndOpenFiles(OPEN_FILES, stores, db,
                "server.max-tcp-connections=20000")) {
            SaleFixture management = new SaleFixture(second.managementBase(), db);
            assertThat(management.get("/health/live", null).statusCode(), is(200));

            InetSocketAddress address = new InetSocketAddress("127.0.0.1", second.base().getPort());
            List<Socket> held = new ArrayList<>();
            boolean refused = false;
            try {
                for (int i = 0; i < MOST_SOCKETS && !refused; i++) {
                    Socket socket = new Socket();
                    try {
                        socket.connect(address, 2_000);
                        held.add(socket);
                    } catch (ConnectException e) {
                        refused = true;
                        socket.close();
                    } catch (IOException e) {
                        socket.close();
                    }
                }
                // the accepts that failed ended the listener: the port refuses from now on
                SaleFixture.await("the service port stops listening", Duration.ofSeconds(30), () -> {
                    try (Socket probe = new Socket()) {
                        probe.connect(address, 1_000);
                        return false;
                    } catch (ConnectException e) {
                        return true;
                    } catch (IOException e) {
                        return false;
                    }
                });
            } finally {
                for (Socket socket : held) {
                    socket.close();
                }
            }
            String[] live = new String[1];
            SaleFixture.await("liveness says DOWN", Duration.ofSeconds(15), () -> {
                var answer = management.get("/health/live", null);
                live[0] = answer.statusCode() + " " + answer.body();
                return answer.statusCode() == 503;
            });
            assertThat(live[0], containsString("DOWN"));
        }
    }
}
