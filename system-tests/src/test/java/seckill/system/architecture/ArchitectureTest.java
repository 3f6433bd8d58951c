package seckill.system.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * Keeps each service module's business rules and its public door plain: classes in a {@code rules}
 * package import no framework, no store client and no JDBC (they are judged by unit tests in
 * milliseconds, against fakes), and classes in an {@code api} package (commands, results, events:
 * what other modules see) import no framework and no store client, so a caller never inherits
 * Helidon, CDI, Jedis or a driver through a module's api. javac already keeps other modules out of
 * internal packages ({@link ModuleBoundaryTest}); this says what the two kinds of packages may
 * lean on. The chaos module is a tool whose api is the checker itself (it reads Redis and SQL by
 * design), so it is not among the service modules.
 */
class ArchitectureTest {

    private static final String[] SERVICE_MODULES = {"seckill.admission..", "seckill.reservation..",
            "seckill.ledger..", "seckill.settlement.."};

    private static final String[] FRAMEWORKS_AND_STORES = {"jakarta..", "javax.inject..", "io.helidon..",
            "org.eclipse.microprofile..", "org.jboss.weld..", "redis.clients..", "com.mysql..", "liquibase.."};

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("seckill.admission", "seckill.reservation", "seckill.ledger", "seckill.settlement");

    @Test
    void rulesImportNoFrameworkNoStoreAndNoJdbc() {
        ArchRule rule = noClasses().that().resideInAnyPackage(rulesPackages())
                .should().dependOnClassesThat().resideInAnyPackage(with(FRAMEWORKS_AND_STORES, "java.sql.."))
                .because("rules are plain logic, unit-tested against fakes");
        rule.check(CLASSES);
    }

    @Test
    void apiPackagesImportNoFrameworkAndNoStoreClient() {
        ArchRule rule = noClasses().that().resideInAnyPackage(apiPackages())
                .should().dependOnClassesThat().resideInAnyPackage(FRAMEWORKS_AND_STORES)
                .because("a module's api is the only door, and callers must not inherit its infrastructure");
        rule.check(CLASSES);
    }

    @Test
    void theRulesHaveClassesToJudge() {
        // a rule over no classes passes vacuously: the import must have found the modules' classes
        ArchRule some = com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes().that()
                .resideInAnyPackage(rulesPackages()).should().bePublic().orShould().notBePublic()
                .allowEmptyShould(false);
        some.check(CLASSES);
        com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes().that().resideInAnyPackage(apiPackages())
                .should().bePublic().orShould().notBePublic().allowEmptyShould(false).check(CLASSES);
    }

    private static String[] rulesPackages() {
        return suffixed(".rules..");
    }

    private static String[] apiPackages() {
        return suffixed(".api..");
    }

    private static String[] suffixed(String suffix) {
        String[] packages = new String[SERVICE_MODULES.length];
        for (int i = 0; i < SERVICE_MODULES.length; i++) {
            packages[i] = SERVICE_MODULES[i].substring(0, SERVICE_MODULES[i].length() - 2) + suffix;
        }
        return packages;
    }

    private static String[] with(String[] packages, String more) {
        String[] all = java.util.Arrays.copyOf(packages, packages.length + 1);
        all[packages.length] = more;
        return all;
    }
}
