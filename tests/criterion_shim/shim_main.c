/* criterion_shim: the runner (see criterion/criterion.h) */
#include <criterion/criterion.h>

#include <signal.h>
#include <stdarg.h>
#include <sys/wait.h>
#include <unistd.h>

static shim_test *g_tests;
static shim_suite *g_suites;

void shim_register(shim_test *t)
{
    t->next = g_tests;
    g_tests = t;
}
void shim_register_suite(shim_suite *s)
{
    s->next = g_suites;
    g_suites = s;
}
void shim_fail(const char *file, int line, const char *what, const char *fmt, ...)
{
    fprintf(stderr, "%s:%d: assertion failed: %s\n  ", file, line, what);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    fflush(NULL);
    _exit(1);
}
void shim_log(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("[----] ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

int main(int argc, char **argv)
{
    const char *only = getenv("SHIM_TEST"); /* suite/name of one test */
    (void)argc;
    (void)argv;
    int run = 0, failed = 0;
    /* registered last-first: reverse to run in file order */
    shim_test *rev = NULL;
    while (g_tests) {
        shim_test *n = g_tests->next;
        g_tests->next = rev;
        rev = g_tests;
        g_tests = n;
    }
    for (shim_test *t = rev; t; t = t->next) {
        char full[256];
        snprintf(full, sizeof full, "%s/%s", t->suite, t->name);
        if (only && strcmp(only, full)) continue;
        const shim_suite *su = NULL;
        for (const shim_suite *s = g_suites; s; s = s->next)
            if (!strcmp(s->name, t->suite)) su = s;
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            if (su && su->opts.init) su->opts.init();
            if (t->opts.init) t->opts.init();
            t->fn();
            if (t->opts.fini) t->opts.fini();
            if (su && su->opts.fini) su->opts.fini();
            fflush(NULL);
            _exit(0);
        }
        int st = 0;
        waitpid(pid, &st, 0);
        bool ok = t->opts.signal ? WIFSIGNALED(st) && WTERMSIG(st) == t->opts.signal
                                 : WIFEXITED(st) && WEXITSTATUS(st) == 0;
        printf("[%s] %s\n", ok ? "PASS" : "FAIL", full);
        run++;
        failed += !ok;
    }
    printf("[====] Synthesis: Tested: %d | Passing: %d | Failing: %d\n", run, run - failed, failed);
    return failed ? 1 : 0;
}
