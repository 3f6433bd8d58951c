package seckill.system.browser;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.function.Function;

import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;
import seckill.system.MachineTools;


/**
 * Debian's Chromium, headless, driven through Debian's chromedriver (packages {@code chromium} and
 * {@code chromium-driver}, which .ci/run installs): nothing is downloaded at run time. Where they
 * are missing the browser tests are skipped, except when {@code SECKILL_REQUIRE_BROWSER} is set, as
 * .ci/run sets it: there a missing browser fails the build.
 */
final class Browser implements AutoCloseable {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    final ChromeDriver driver;
    private final Path profile;

    private Browser(ChromeDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    static Browser start() throws IOException {
        boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        MachineTools.require(present, CHROMIUM + " or " + CHROMEDRIVER
                + " is missing (apt-get install chromium chromium-driver)");
        Path profile = Files.createTempDirectory("seckill-chromium");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        // the flags that keep Chromium off the (closed) network and quiet in a container
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--window-size=1280,1000", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        return new Browser(new ChromeDriver(service, options), profile);
    }

    void open(String url) {
        driver.get(url);
    }

    WebElement byId(String id) {
        return driver.findElement(By.id(id));
    }

    String text(String id) {
        return byId(id).getText();
    }

    /** Waits (polling the page) until the condition holds. */
    <T> T await(String what, Duration timeout, Function<WebDriver, T> condition) {
        try {
            // the operations view re-renders its tables every second: an element read mid-render is asked again
            return new WebDriverWait(driver, timeout, Duration.ofMillis(100)).withMessage(what)
                    .ignoring(org.openqa.selenium.StaleElementReferenceException.class).until(condition);
        } catch (org.openqa.selenium.TimeoutException e) {
            // what the page showed is what tells why
            throw new AssertionError("waited for " + what + "; the page showed:\n"
                    + driver.findElement(By.tagName("body")).getText(), e);
        }
    }

    /** A PNG of the window, kept in app/target/screenshots for the README's pictures. */
    Path screenshot(String name) throws IOException {
        Path target = Path.of("target", "screenshots", name + ".png");
        Files.createDirectories(target.getParent());
        Files.copy(driver.getScreenshotAs(OutputType.FILE).toPath(), target, StandardCopyOption.REPLACE_EXISTING);
        return target;
    }

    @Override
    public void close() throws IOException {
        driver.quit();
        try (var files = Files.walk(profile)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
