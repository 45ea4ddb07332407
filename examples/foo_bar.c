/*
    foo_bar -- the seeds' nested-coroutine program, in corral.

    C# (Unity):                          corral:
        StartCoroutine(Foo());               foo_start(s, ...)
        StartCoroutine(Bar());               bar_start(s, ...)
        IEnumerator Foo() {                  Foo calls Foo2: CORRAL_CALL
            yield return Foo2();
            Log("Foo finished!");
        }
        IEnumerator Foo2() {
            for (int i = 0; i < 5; i++) {
                Log(i);
                yield return new WaitForSeconds(1);
            }
            Log("Foo2 finished!");
        }
        IEnumerator Bar() {
            yield return new WaitForSeconds(1);
            Log("Bar finished!");
        }

    Runs at 60 frames a second and prints each line with its simulated
    time, in the order and at the times Unity prints them: 0 at 0 s; 1 and
    "Bar finished!" at 1 s; 2, 3, 4; "Foo2 finished!" and "Foo finished!"
    together at 5 s (no frame is lost between a child and its parent).
*/
#include <corral/corral.h>

#include <stdio.h>

static corral_sched *g_s;

static void say(const char *text)
{
    printf("[%5.2fs frame %3llu] %s\n", corral_time(g_s), (unsigned long long)corral_frame(g_s), text);
}

#define FOO2_FIELDS(F) F(int, i)
DECLARE_COROUTINE(foo2, FOO2_FIELDS)
DEFINE_COROUTINE(foo2)
{
    CORRAL_BEGIN(co);
    for (ctx->i = 0; ctx->i < 5; ctx->i++) {
        char line[16];
        snprintf(line, sizeof line, "%d", ctx->i);
        say(line);
        CORRAL_WAIT_SECONDS(co, 1.0f);
    }
    say("Foo2 finished!");
    CORRAL_END(co);
}

#define FOO_FIELDS(F) F(int, unused)
DECLARE_COROUTINE(foo, FOO_FIELDS)
DEFINE_COROUTINE(foo)
{
    CORRAL_BEGIN(co);
    CORRAL_CALL(co, foo2, (foo2_ctx){0}); /* yield return Foo2(); */
    say("Foo finished!");
    CORRAL_END(co);
}

#define BAR_FIELDS(F) F(int, unused)
DECLARE_COROUTINE(bar, BAR_FIELDS)
DEFINE_COROUTINE(bar)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_SECONDS(co, 1.0f);
    say("Bar finished!");
    CORRAL_END(co);
}

int main(void)
{
    g_s = corral_sched_create(&(corral_sched_desc){.classes = {{.slot_size = 32, .capacity = 4}}});
    if (!g_s) return 1;
    foo_start(g_s, (foo_ctx){0});
    bar_start(g_s, (bar_ctx){0});
    while (corral_live_count(g_s) > 0) corral_tick(g_s, 1.0f / 60.0f);
    corral_sched_destroy(g_s);
    return 0;
}
