/*
    host.c -- a game host that reloads its gameplay module while the game
    runs (docs/HOTRELOAD.md). It loads build 1 of game.c, runs two seconds
    of frames, loads build 2 and hands its registry and upgrade hook to
    corral_reload: the lantern and the guard go on where they stood, in
    the new code and the new layout; build 1 is unloaded. Then build 3 (a
    field that changed its kind) is refused by name and the game runs on
    in build 2.

    The three builds are shared modules built beside this program; their
    paths come from the build (HOTRELOAD_BUILD_1 ...). On Linux corral
    lives in this program, which exports it to the modules; on Windows it
    is corral.dll, which the host and the modules share.
*/
#include <corral/corral.h>

#include <stdio.h>
#include <string.h>
#ifdef _WIN32
#include <windows.h>
#else
#include <dlfcn.h>
#endif

typedef void (*upgrade_fn)(const corral_type *type, void *ctx, const corral_saved_type *old, const void *old_ctx,
                           void *user);
typedef struct build {
    void *lib;
    const corral_registry *(*types)(void);
    void (*begin)(corral_sched *s);
    void (*after_reload)(corral_sched *s);
    upgrade_fn upgrade;
} build;

/* the platform's loader: open, find a function by name, close */
#ifdef _WIN32
static void *lib_open(const char *path) { return (void *)LoadLibraryA(path); }
static void lib_find(void *lib, const char *name, void *fn)
{
    FARPROC p = GetProcAddress((HMODULE)lib, name);
    memcpy(fn, &p, sizeof p);
}
static void lib_close(void *lib) { FreeLibrary((HMODULE)lib); }
static const char *lib_error(void) { return "LoadLibrary failed"; }
#else
static void *lib_open(const char *path) { return dlopen(path, RTLD_NOW | RTLD_LOCAL); }
static void lib_find(void *lib, const char *name, void *fn)
{
    void *p = dlsym(lib, name);
    memcpy(fn, &p, sizeof p);
}
static void lib_close(void *lib) { dlclose(lib); }
static const char *lib_error(void) { return dlerror(); }
#endif

static int load(build *b, const char *path)
{
    b->lib = lib_open(path);
    if (!b->lib) {
        fprintf(stderr, "host: %s: %s\n", path, lib_error());
        return 0;
    }
    lib_find(b->lib, "game_types", &b->types);
    lib_find(b->lib, "game_begin", &b->begin);
    lib_find(b->lib, "game_after_reload", &b->after_reload);
    lib_find(b->lib, "game_upgrade", &b->upgrade);
    return b->types && b->begin && b->after_reload && b->upgrade;
}

static void run(corral_sched *s, int frames)
{
    for (int f = 0; f < frames; f++) corral_tick(s, 0.25f);
}

/* the host's reload: the new build takes over, or the old one runs on */
static int reload(corral_sched *s, build *now, build *next)
{
    corral_reload_desc r = {next->types(), NULL, next->upgrade, NULL};
    if (!corral_reload(s, &r)) {
        printf("[%5.2fs] host: reload refused: %s\n", corral_time(s), corral_last_error_detail(s));
        lib_close(next->lib);
        return 0;
    }
    printf("[%5.2fs] host: reloaded, %u coroutines go on in the new build\n", corral_time(s), corral_live_count(s));
    lib_close(now->lib);
    *now = *next;
    now->after_reload(s);
    return 1;
}

int main(void)
{
    build now, next;
    if (!load(&now, HOTRELOAD_BUILD_1)) return 1;
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.registry = now.types();
    /* a development build's arena: slots with room for contexts to grow
       between builds (a reload keeps each coroutine in its slot) */
    d.classes[0] = (corral_class_desc){64, 64};
    d.classes[1] = (corral_class_desc){256, 16};
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
    lib_close(now.lib);
    return 0;
}
