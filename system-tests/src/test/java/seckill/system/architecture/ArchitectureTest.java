package seckill.system.architecture;

import java.sql.SQLException;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;
import seckill.system.architecture.probe.api.ClassifiesSqlFailures;
import seckill.system.architecture.probe.api.TakesAConnection;
import seckill.system.architecture.probe.rules.NeedsJedis;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Keeps every module's business rules and its public door plain. Classes in a {@code rules} package
 * import no framework, no store client and no JDBC (they are judged by unit tests in milliseconds,
 * against fakes). Classes in an {@code api} package (commands, results, events: what other modules
 * see) import no framework and no store client, and of JDBC at most its exception types (the
 * ledger's {@code LedgerUnavailable} tells an outage from a refusal by them), so a caller never
 * inherits Helidon, CDI, Jedis, a driver or a connection through a module's api.
 * <p>
 * The rules run over every {@code seckill} class on the class path, so a new module is covered
 * without being listed. The tool modules' apis are the exception, named here: the chaos checker reads
 * Redis and SQL by design, the drill drives the stores and HTTP, the benchmark and the dev servers
 * start servers; none of them is a dependency of a service module. javac already keeps other modules
 * out of internal packages ({@link ModuleBoundaryTest}); this says what the two kinds of packages may
 * lean on.
 */
class ArchitectureTest {

    /** Tool modules whose api is the tool itself (none of them is required by a service module). */
    private static final String[] TOOL_APIS = {"seckill.chaos.api..", "seckill.drill.api..", "seckill.bench.api..",
            "seckill.dev.api.."};

    /** The service modules' apis that must be found, so that neither rule passes over nothing. */
    private static final String[] SERVICE_APIS = {"seckill.admission.api", "seckill.reservation.api",
            "seckill.ledger.api", "seckill.settlement.api", "seckill.queue.api"};

    private static final String[] FRAMEWORKS_AND_STORES = {"jakarta..", "javax.inject..", "io.helidon..",
            "org.eclipse.microprofile..", "org.jboss.weld..", "redis.clients..", "com.mysql..", "liquibase.."};

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("seckill");

    private static final ArchRule RULES_ARE_PLAIN = noClasses().that().resideInAPackage("seckill..rules..")
            .should().dependOnClassesThat(resideInAnyPackage(FRAMEWORKS_AND_STORES).or(resideInAPackage("java.sql..")))
            .because("rules are plain logic, unit-tested against fakes");

    private static final ArchRule APIS_ARE_PLAIN = noClasses().that().resideInAPackage("seckill..api..")
            .and().resideOutsideOfPackages(TOOL_APIS)
            .should().dependOnClassesThat(resideInAnyPackage(FRAMEWORKS_AND_STORES).or(jdbcBeyondItsExceptions()))
            .because("a module's api is the only door, and callers must not inherit its infrastructure");

    @Test
    void rulesImportNoFrameworkNoStoreAndNoJdbc() {
        RULES_ARE_PLAIN.check(CLASSES);
    }

    @Test
    void apiPackagesImportNoFrameworkNoStoreClientAndOfJdbcOnlyItsExceptions() {
        APIS_ARE_PLAIN.check(CLASSES);
    }

    @Test
    void theRulesHaveClassesToJudge() {
        // a rule over no classes passes vacuously: the import must have found the modules' classes
        classes().that().resideInAPackage("seckill..rules..").should().bePublic().orShould().notBePublic()
                .allowEmptyShould(false).check(CLASSES);
        for (String api : SERVICE_APIS) {
            classes().that().resideInAPackage(api).should().bePublic().orShould().notBePublic()
                    .allowEmptyShould(false).because(api + " must be on the class path to be judged").check(CLASSES);
        }
        // and every named exception is a module that exists (a renamed tool would otherwise leave a hole)
        for (String tool : TOOL_APIS) {
            classes().that().resideInAPackage(tool).should().bePublic().orShould().notBePublic()
                    .allowEmptyShould(false).because(tool + " is named as an exception").check(CLASSES);
        }
    }

    @Test
    void theRulesRefuseWhatTheyForbid() {
        // made-up classes in this test's own probe packages: a rule that reaches for Jedis, an api that
        // hands out a JDBC connection; and an api that only classifies JDBC's exceptions, which is allowed
        JavaClasses probes = new ClassFileImporter().importClasses(NeedsJedis.class, TakesAConnection.class,
                ClassifiesSqlFailures.class);
        assertThrows(AssertionError.class, () -> RULES_ARE_PLAIN.check(probes));
        assertThrows(AssertionError.class, () -> APIS_ARE_PLAIN.check(probes));
        APIS_ARE_PLAIN.check(new ClassFileImporter().importClasses(ClassifiesSqlFailures.class));
    }

    private static DescribedPredicate<JavaClass> jdbcBeyondItsExceptions() {
        return resideInAPackage("java.sql..").and(DescribedPredicate.not(assignableTo(SQLException.class)))
                .as("java.sql beyond its exception types");
    }
}
