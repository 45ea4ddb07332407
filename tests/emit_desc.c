/* Writes the desc corral_emit_desc prints for a small profiled game to
   the file argv[1]: tests/emitted_desc.cmake compiles it as C11 and as
   C++20 under strict warnings, as a game would paste it. */
#include <corral/corral.h>

#include <stdio.h>

#define ED_FIELDS(F) F(int, frames)
DECLARE_COROUTINE(ed_walk, ED_FIELDS)
DEFINE_COROUTINE(ed_walk)
{
    (void)co;
    return ctx->frames-- > 0 ? CORRAL_YIELD : CORRAL_STOP;
}
DECLARE_COROUTINE(ed_wave, ED_FIELDS)
DEFINE_COROUTINE(ed_wave)
{
    (void)co;
    return ctx->frames-- > 0 ? CORRAL_YIELD : CORRAL_STOP;
}

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    corral_sched_desc d = {0};
    d.fixed_dt = 1.0f / 50.0f;
    d.validation = CORRAL_VALIDATION_REPORT;
    corral_sched *s = corral_sched_create(&d);
    if (!s) return 1;
    /* two types of one class: each fills its own page of it */
    for (int f = 0; f < 10; f++) {
        ed_walk_start(s, (ed_walk_ctx){f});
        ed_wave_start(s, (ed_wave_ctx){f / 2});
        corral_tick(s, 1.0f / 60.0f);
    }
    FILE *out = fopen(argv[1], "w");
    if (!out) return 1;
    corral_emit_desc(s, 0.25f, out);
    corral_sched_destroy(s);
    return fclose(out) == 0 ? 0 : 1;
}
