/*
    host.c -- a game host that reloads its gameplay module while the game
    runs (docs/HOTRELOAD.md). It loads build 1 of game.c, runs two seconds
    of frames, loads build 2 and hands its registry to corral_reload: the
    lantern and the guard go on where they stood, in the new code; build 1
    is unloaded. Then build 3 (a field added to the guard) is refused by
    name and the game runs on in build 2.

    The three builds are shared modules built beside this program; their
    paths come from the build (HOTRELOAD_BUILD_1 ...). corral lives in this
    program, which exports it to the modules.
*/
#include <corral/corral.h>

#include <dlfcn.h>
#include <stdio.h>

typedef struct build {
    void *lib;
    const corral_registry *(*types)(void);
    void (*begin)(corral_sched *s);
    void (*after_reload)(corral_sched *s);
} build;

static int load(build *b, const char *path)
{
    b->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!b->lib) {
        fprintf(stderr, "host: %s\n", dlerror());
        return 0;
    }
    *(void **)&b->types = dlsym(b->lib, "game_types");
    *(void **)&b->begin = dlsym(b->lib, "game_begin");
    *(void **)&b->after_reload = dlsym(b->lib, "game_after_reload");
    return b->types && b->begin && b->after_reload;
}

static void run(corral_sched *s, int frames)
{
    for (int f = 0; f < frames; f++) corral_tick(s, 0.25f);
}

/* the host's reload: the new build takes over, or the old one runs on */
static int reload(corral_sched *s, build *now, build *next)
{
    corral_reload_desc r = {next->types(), NULL, NULL, NULL};
    if (!corral_reload(s, &r)) {
        printf("[%5.2fs] host: reload refused: %s\n", corral_time(s), corral_last_error_detail(s));
        dlclose(next->lib);
        return 0;
    }
    printf("[%5.2fs] host: reloaded, %u coroutines go on in the new build\n", corral_time(s), corral_live_count(s));
    dlclose(now->lib);
    *now = *next;
    now->after_reload(s);
    return 1;
}

int main(void)
{
    build now, next;
    if (!load(&now, HOTRELOAD_BUILD_1)) return 1;
    corral_sched_desc d = {0};
    d.registry = now.types();
    corral_sched *s = corral_sched_create(&d);
    if (!s) return 1;
    now.begin(s);
    run(s, 8);
    if (!load(&next, HOTRELOAD_BUILD_2) || !reload(s, &now, &next)) return 1;
    run(s, 8);
    if (!load(&next, HOTRELOAD_BUILD_3) || reload(s, &now, &next)) return 1;
    run(s, 4);
    printf("[%5.2fs] host: done, %u coroutines\n", corral_time(s), corral_live_count(s));
    corral_sched_destroy(s);
    dlclose(now.lib);
    return 0;
}
