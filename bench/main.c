/*
    corral_bench -- corral side by side with its peers and the raw-loop limit.

        corral_bench [--smoke] [--reps R] [--json PATH] [--only CASE] [--peers A,B] [--svg PATH]

    Every case runs R times (5; 1 with --smoke); within a repetition the
    contenders take turns, so machine noise spreads over all of them. The
    median, min and max ns per op are kept. Every run checks a checksum: a
    wrong one (or a crash) fails the run; timing never does.

    This file also interposes malloc & co to count allocator calls for the
    whole process (contenders, libstdc++, Lua): that is how the allocation
    columns are measured.
*/
#define _GNU_SOURCE
#include "bench.h"

#include <dlfcn.h>
#include <math.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* ---- allocation counting (glibc) */
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);
static uint64_t g_alloc_calls;
void *malloc(size_t n)
{
    g_alloc_calls++;
    return __libc_malloc(n);
}
void *calloc(size_t a, size_t b)
{
    g_alloc_calls++;
    return __libc_calloc(a, b);
}
void *realloc(void *p, size_t n)
{
    g_alloc_calls++;
    return __libc_realloc(p, n);
}
void free(void *p) { __libc_free(p); }
void *aligned_alloc(size_t a, size_t n)
{
    g_alloc_calls++;
    return __libc_memalign(a, n);
}
void *memalign(size_t a, size_t n)
{
    g_alloc_calls++;
    return __libc_memalign(a, n);
}
int posix_memalign(void **out, size_t a, size_t n)
{
    g_alloc_calls++;
    *out = __libc_memalign(a, n);
    return *out ? 0 : 12;
}

uint64_t bench_alloc_calls(void) { return g_alloc_calls; }

uint64_t bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

unsigned bench_type_of(size_t i)
{
    uint64_t x = (uint64_t)i * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    return (unsigned)(x % BENCH_TYPES);
}

size_t bench_heap_bytes(void)
{
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}

/* ---- contenders */
#define MAX_PEERS 32
static const bench_peer *g_peers[MAX_PEERS];
static int g_npeers;

/* --peers LIST: keep only contenders whose name contains one of the
   comma-separated words (and always the function-pointer loop, the limit) */
static const char *g_peer_filter;

static int peer_wanted(const char *name)
{
    if (!g_peer_filter || !strcmp(name, bench_peer_raw_fp.name)) return 1;
    const char *w = g_peer_filter;
    while (*w) {
        size_t len = strcspn(w, ",");
        for (const char *h = name; len && *h; h++)
            if (!strncmp(h, w, len)) return 1;
        w += len;
        if (*w == ',') w++;
    }
    return 0;
}

static void load_module(const char *dir, const char *file, const char *label)
{
    if (!peer_wanted(label)) return;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        printf("skipped: %-22s cannot load %s (%s)\n", label, file, dlerror());
        return;
    }
    void *sym = dlsym(h, "bench_module_peer");
    bench_module_fn fn = NULL;
    memcpy(&fn, &sym, sizeof fn); /* object -> function pointer, as POSIX allows */
    if (!fn) {
        printf("skipped: %-22s %s has no bench_module_peer\n", label, file);
        return;
    }
    if (g_npeers == MAX_PEERS) {
        fprintf(stderr, "bench: more than %d contenders: raise MAX_PEERS\n", MAX_PEERS);
        exit(2);
    }
    g_peers[g_npeers++] = fn();
}

static void add_builtin(const bench_peer *p)
{
    if (!peer_wanted(p->name)) return;
    if (p->skip) {
        printf("skipped: %-22s %s\n", p->name, p->skip);
        return;
    }
    if (g_npeers == MAX_PEERS) {
        fprintf(stderr, "bench: more than %d contenders: raise MAX_PEERS\n", MAX_PEERS);
        exit(2);
    }
    g_peers[g_npeers++] = p;
}

/* ---- results */
typedef struct result {
    const char *kase;
    const char *peer;
    size_t n;
    double ns[16];
    int reps;
    double bytes;
    double allocs_per_op;
    const char *note;
    int failed;
} result;
#define MAX_RESULTS 512
static result g_res[MAX_RESULTS];
static int g_nres;
static int g_failures;

static result *slot_for(const char *kase, const char *peer, size_t n)
{
    for (int i = 0; i < g_nres; i++)
        if (g_res[i].kase == kase && g_res[i].peer == peer && g_res[i].n == n) return &g_res[i];
    if (g_nres == MAX_RESULTS) {
        fprintf(stderr, "bench: more than %d results: raise MAX_RESULTS\n", MAX_RESULTS);
        exit(2);
    }
    result *r = &g_res[g_nres++];
    memset(r, 0, sizeof *r);
    r->kase = kase;
    r->peer = peer;
    r->n = n;
    return r;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
static double median(const result *r)
{
    double v[16];
    memcpy(v, r->ns, sizeof(double) * (size_t)r->reps);
    qsort(v, (size_t)r->reps, sizeof v[0], cmp_double);
    return r->reps % 2 ? v[r->reps / 2] : (v[r->reps / 2 - 1] + v[r->reps / 2]) / 2;
}
static double minv(const result *r)
{
    double m = r->ns[0];
    for (int i = 1; i < r->reps; i++) m = r->ns[i] < m ? r->ns[i] : m;
    return m;
}
static double maxv(const result *r)
{
    double m = r->ns[0];
    for (int i = 1; i < r->reps; i++) m = r->ns[i] > m ? r->ns[i] : m;
    return m;
}

static void record(const char *kase, const bench_peer *p, size_t n, int rc, const bench_out *o)
{
    result *r = slot_for(kase, p->name, n);
    if (rc != 0 || o->checksum != o->expected) {
        if (!r->failed)
            printf("FAILED: %s / %s / N=%zu: rc=%d checksum %llu, expected %llu\n", kase, p->name, n,
                   rc, (unsigned long long)o->checksum, (unsigned long long)o->expected);
        r->failed = 1;
        g_failures++;
        return;
    }
    if (r->reps < 16) r->ns[r->reps++] = o->ops ? (double)o->t_ns / (double)o->ops : 0;
    r->bytes = o->bytes_per_co;
    r->allocs_per_op = o->ops ? (double)o->allocs / (double)o->ops : 0;
    r->note = o->note;
}

typedef int (*loop_fn)(size_t, int, bench_out *);

static int too_big(const bench_peer *p, const char *kase, size_t n, int rep)
{
    if (!p->max_n || n <= p->max_n) return 0;
    if (rep == 0) printf("skipped: %-22s %s N=%zu: %s\n", p->name, kase, n, p->max_n_why);
    return 1;
}

/* A horizontal bar chart, log scale, of the median ns per step at N = 10^4
   (plain SVG written here: no plotting dependency). */
static void write_svg(const char *path, const char *cpu, long cores)
{
    const result *rows[MAX_PEERS];
    int n = 0;
    for (int i = 0; i < g_nres && n < MAX_PEERS; i++)
        if (!strcmp(g_res[i].kase, "step") && g_res[i].n == 10000 && g_res[i].reps && !g_res[i].failed)
            rows[n++] = &g_res[i];
    if (n == 0) return;
    FILE *f = fopen(path, "w");
    if (!f) return;
    const int bar_h = 22, gap = 8, left = 190, width = 720, top = 48;
    const int height = top + n * (bar_h + gap) + 40;
    double lo = 1.0, hi = 1000.0; /* 1 ns .. 1 us, log */
    for (int i = 0; i < n; i++) {
        double m = median(rows[i]);
        while (m > hi) hi *= 10.0;
    }
    fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' font-family='sans-serif' font-size='12'>\n",
            left + width + 80, height);
    fprintf(f, "<rect width='100%%' height='100%%' fill='white'/>\n");
    fprintf(f, "<text x='10' y='20' font-size='15' font-weight='bold'>ns per step, 10^4 live coroutines (median, log scale)</text>\n");
    fprintf(f, "<text x='10' y='38' fill='#555'>%s, %ld cores; lower is better</text>\n", cpu, cores);
    for (double t = lo; t <= hi; t *= 10.0) {
        double x = left + width * (log10(t) - log10(lo)) / (log10(hi) - log10(lo));
        fprintf(f, "<line x1='%.1f' y1='%d' x2='%.1f' y2='%d' stroke='#ddd'/>\n", x, top - 4, x, height - 30);
        fprintf(f, "<text x='%.1f' y='%d' text-anchor='middle' fill='#555'>%g ns</text>\n", x, height - 14, t);
    }
    for (int i = 0; i < n; i++) {
        double m = median(rows[i]);
        double w = width * (log10(m < lo ? lo : m) - log10(lo)) / (log10(hi) - log10(lo));
        int y = top + i * (bar_h + gap);
        const char *color = strstr(rows[i]->peer, "corral") ? "#d9822b" : strstr(rows[i]->peer, "raw") ? "#888" : "#4a7fb5";
        fprintf(f, "<text x='%d' y='%d' text-anchor='end'>%s</text>\n", left - 8, y + 15, rows[i]->peer);
        fprintf(f, "<rect x='%d' y='%d' width='%.1f' height='%d' fill='%s'/>\n", left, y, w < 1 ? 1 : w, bar_h, color);
        fprintf(f, "<text x='%.1f' y='%d'>%.2f</text>\n", left + w + 6, y + 15, m);
    }
    fprintf(f, "</svg>\n");
    fclose(f);
    printf("wrote %s\n", path);
}

int main(int argc, char **argv)
{
    int smoke = 0, reps = 5;
    const char *json = "bench/results.json";
    const char *only = NULL; /* one case family: step, mixed, spawn, nested, sleepers, rollback, posts, memory */
    const char *svg = NULL;  /* --svg PATH: a chart of ns per step at N = 10^4 */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--smoke")) smoke = 1;
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--json") && i + 1 < argc) json = argv[++i];
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else if (!strcmp(argv[i], "--svg") && i + 1 < argc) svg = argv[++i];
        else if (!strcmp(argv[i], "--peers") && i + 1 < argc) g_peer_filter = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--smoke] [--reps R] [--json PATH] [--only CASE] [--peers A,B] [--svg PATH]\n",
                    argv[0]);
            return 2;
        }
    }
    if (smoke) reps = 1;
    if (reps < 1) reps = 1;
    if (reps > 16) reps = 16;

    char dir[4096];
    ssize_t len = readlink("/proc/self/exe", dir, sizeof dir - 1);
    dir[len > 0 ? len : 0] = 0;
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0;

    add_builtin(&bench_peer_raw_fp);
    add_builtin(&bench_peer_raw_direct);
    add_builtin(&bench_peer_raw_fp24);
    add_builtin(&bench_peer_raw_fp24_queue);
    add_builtin(&bench_peer_memcpy_snapshot);
    add_builtin(&bench_peer_atomic_xchg);
    add_builtin(&bench_peer_corral);
    add_builtin(&bench_peer_corral_by_type);
    add_builtin(&bench_peer_corral_history);
    add_builtin(&bench_peer_corral_timing);
    add_builtin(&bench_peer_corral_batch);
    add_builtin(&bench_peer_corral_kept);
    add_builtin(&bench_peer_naive);
    add_builtin(&bench_peer_cpp20);
    add_builtin(&bench_peer_boost);
    add_builtin(&bench_peer_pcl);
    load_module(dir, "bench_lua54.so", "Lua 5.4 coroutines");
    load_module(dir, "bench_luajit.so", "LuaJIT coroutines");

    const double total_steps = smoke ? 2e5 : 2e7;
    const size_t step_ns[] = {1000, 10000, 100000, 1000000};
    const int n_step = smoke ? 2 : 4;
    const size_t mixed_n = smoke ? 10000 : 100000;
    const size_t spawn_count = smoke ? 20000 : 2000000;
    const int ctx_sizes[] = {16, 32, 256};
    const size_t mem_n = smoke ? 1000 : 10000;

#define WANT(c) (!only || !strcmp(only, c))
    for (int rep = 0; rep < reps; rep++) {
        for (int s = 0; s < n_step && WANT("step"); s++) {
            size_t n = step_ns[s];
            int ticks = (int)(total_steps / (double)n);
            if (ticks < 3) ticks = 3;
            for (int p = 0; p < g_npeers; p++) {
                if (!g_peers[p]->step || too_big(g_peers[p], "step", n, rep)) continue;
                bench_out o = {0};
                record("step", g_peers[p], n, g_peers[p]->step(n, ticks, &o), &o);
            }
        }
        if (WANT("mixed")) {
            int ticks = (int)(total_steps / (double)mixed_n);
            for (int p = 0; p < g_npeers; p++) {
                /* the one-type figure at the same N, for the mixed/one ratio */
                if (!g_peers[p]->mixed || too_big(g_peers[p], "mixed", mixed_n, rep)) continue;
                bench_out o = {0};
                record("mixed", g_peers[p], mixed_n, g_peers[p]->mixed(mixed_n, ticks, &o), &o);
                if (smoke) {
                    bench_out o1 = {0};
                    record("step", g_peers[p], mixed_n, g_peers[p]->step(mixed_n, ticks, &o1), &o1);
                }
            }
        }
        for (int p = 0; p < g_npeers && WANT("spawn"); p++) {
            if (!g_peers[p]->spawn) continue;
            bench_out o = {0};
            record("spawn", g_peers[p], spawn_count, g_peers[p]->spawn(spawn_count, &o), &o);
        }
    }
    /* (e) nested: a step at depth 0 (the same coroutine, called by no one:
       what the body costs without nesting), 1, 8 and 1,000 */
    {
        const int depths[4] = {0, 1, 8, 1000};
        static const char *names[4] = {"nested depth=0", "nested depth=1", "nested depth=8", "nested depth=1000"};
        const size_t chains = smoke ? 100 : 1000;
        for (int rep = 0; rep < reps && WANT("nested"); rep++)
            for (int c = 0; c < 4; c++) {
                int ticks = smoke ? 10 : 2000;
                for (int p = 0; p < g_npeers; p++) {
                    if (!g_peers[p]->nested) {
                        if (rep == 0 && c == 0 && g_peers[p]->spawn)
                            printf("n/a:     %-22s nested: %s\n", g_peers[p]->name,
                                   "no nesting to measure here (see bench/README.md)");
                        continue;
                    }
                    bench_out o = {0};
                    record(names[c], g_peers[p], chains,
                           g_peers[p]->nested(chains, depths[c], ticks, &o), &o);
                }
            }
    }
    /* (d) sleepers: the cost of a tick with 0, 10^2, 10^4 of them due */
    {
        const size_t sleepers_n = smoke ? 20000 : 1000000;
        const size_t dues[3] = {0, 100, 10000};
        static const char *names[3] = {"sleepers due=0", "sleepers due=100", "sleepers due=10^4"};
        for (int rep = 0; rep < reps && WANT("sleepers"); rep++)
            for (int c = 0; c < 3; c++) {
                int ticks = dues[c] == 0 ? 1000 : 1; /* each tick wakes `due` */
                if (dues[c] * (size_t)ticks > sleepers_n) continue;
                for (int p = 0; p < g_npeers; p++) {
                    if (!g_peers[p]->sleepers) {
                        if (rep == 0 && c == 0 && g_peers[p]->spawn)
                            printf("n/a:     %-22s sleepers: a coroutine mechanism, no scheduler of its own\n",
                                   g_peers[p]->name);
                        continue;
                    }
                    bench_out o = {0};
                    record(names[c], g_peers[p], sleepers_n,
                           g_peers[p]->sleepers(sleepers_n, dues[c], ticks, &o), &o);
                }
            }
    }
    /* (g) rollback: snapshot + restore against a memcpy of the same
       bytes out and back; an 8-frame rollback (restore + 8 ticks); save
       games: a save and a load per coroutine at 10^4 and 10^5, against a
       memcpy of the save's bytes; a hot reload per coroutine, beside them,
       keeping every context's layout or moving every context */
    {
        static const char *names[6] = {"snapshot+restore", "rollback 8 frames", "save, per co", "load, per co",
                                       "reload, per co", "reload moving, per co"};
        const int rb_reps = smoke ? 5 : 200;
        for (int rep = 0; rep < reps && WANT("rollback"); rep++)
            for (int c = 0; c < 6; c++)
                for (int big = 0; big < (c >= 2 ? 2 : 1); big++)
                    for (int p = 0; p < g_npeers; p++) {
                        if (!g_peers[p]->rollback) continue;
                        const size_t n = smoke ? 1000 : big ? 100000 : 10000;
                        int r = c == 1 ? (rb_reps + 9) / 10 : c >= 2 ? (big ? 2 : 20) : rb_reps;
                        bench_out o = {0};
                        int rc = g_peers[p]->rollback(n, c, smoke ? 1 : r, &o);
                        if (rc != 1) record(names[c], g_peers[p], n, rc, &o);
                    }
    }
    /* (h) threads: a post, and post to resume, beside an atomic exchange */
    for (int rep = 0; rep < reps && WANT("posts"); rep++)
        for (int c = 0; c < 2; c++)
            for (int p = 0; p < g_npeers; p++) {
                if (!g_peers[p]->posts) continue;
                const size_t n = smoke ? 4096 : 1u << 20;
                bench_out o = {0};
                int rc = g_peers[p]->posts(n, c, &o);
                if (rc != 1) record(c ? "post to resume" : "post", g_peers[p], n, rc, &o);
            }
    for (int c = 0; c < 3 && WANT("memory"); c++) {
        static const char *names[] = {"memory ctx=16", "memory ctx=32", "memory ctx=256"};
        for (int p = 0; p < g_npeers; p++) {
            if (!g_peers[p]->memory) continue;
            bench_out o = {0};
            int rc = g_peers[p]->memory(mem_n, ctx_sizes[c], &o);
            record(names[c], g_peers[p], mem_n, rc, &o);
        }
    }

    /* ---- table */
    struct utsname u;
    uname(&u);
    char cpu[256] = "unknown cpu";
    FILE *ci = fopen("/proc/cpuinfo", "r");
    if (ci) {
        char line[512];
        while (fgets(line, sizeof line, ci))
            if (!strncmp(line, "model name", 10)) {
                char *v = strchr(line, ':');
                if (v) snprintf(cpu, sizeof cpu, "%s", v + 2);
                cpu[strcspn(cpu, "\n")] = 0;
                break;
            }
        fclose(ci);
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    printf("\nmachine: %s, %ld cores, %s %s; %d repetition(s), median [min..max]\n\n", cpu, cores,
           u.sysname, u.release, reps);
    printf("%-16s %8s  %-40s %10s %21s %9s %10s %10s\n", "case", "N", "contender", "ns/op",
           "[min .. max]", "x limit", "allocs/op", "bytes/co");
    for (int i = 0; i < g_nres; i++) {
        result *r = &g_res[i];
        if (r->failed || r->reps == 0) continue;
        int is_mem = !strncmp(r->kase, "memory", 6);
        if (is_mem) {
            printf("%-16s %8zu  %-40s %10s %21s %9s %10s %10.1f %s\n", r->kase, r->n, r->peer, "-", "",
                   "", "", r->bytes, r->note ? r->note : "");
            continue;
        }
        /* ratio to the function-pointer loop at the same case and N */
        double limit = 0;
        for (int j = 0; j < g_nres; j++)
            if (g_res[j].kase == r->kase && g_res[j].n == r->n &&
                !strcmp(g_res[j].peer, bench_peer_raw_fp.name) && g_res[j].reps)
                limit = median(&g_res[j]);
        char ratio[16] = "";
        if (limit > 0) snprintf(ratio, sizeof ratio, "%.2f", median(r) / limit);
        char range[32];
        snprintf(range, sizeof range, "[%.2f .. %.2f]", minv(r), maxv(r));
        printf("%-16s %8zu  %-40s %10.2f %21s %9s %10.4f %s\n", r->kase, r->n, r->peer, median(r), range,
               ratio, r->allocs_per_op, r->note ? r->note : "");
    }

    /* ---- JSON (schema in bench/README.md) */
    FILE *f = fopen(json, "w");
    if (!f) {
        fprintf(stderr, "cannot write %s\n", json);
    } else {
        fprintf(f, "{\n  \"schema\": 1,\n  \"machine\": {\"cpu\": \"%s\", \"cores\": %ld, \"os\": \"%s %s\"},\n",
                cpu, cores, u.sysname, u.release);
        fprintf(f, "  \"smoke\": %s,\n  \"repetitions\": %d,\n  \"results\": [\n", smoke ? "true" : "false",
                reps);
        int first = 1;
        for (int i = 0; i < g_nres; i++) {
            result *r = &g_res[i];
            if (r->failed || r->reps == 0) continue;
            int is_mem = !strncmp(r->kase, "memory", 6);
            fprintf(f, "%s    {\"case\": \"%s\", \"contender\": \"%s\", \"n\": %zu, ", first ? "" : ",\n",
                    r->kase, r->peer, r->n);
            if (is_mem)
                fprintf(f, "\"median_ns\": null, \"min_ns\": null, \"max_ns\": null, ");
            else
                fprintf(f, "\"median_ns\": %.4f, \"min_ns\": %.4f, \"max_ns\": %.4f, ", median(r), minv(r),
                        maxv(r));
            if (is_mem) fprintf(f, "\"bytes_per_coroutine\": %.1f, ", r->bytes);
            else fprintf(f, "\"bytes_per_coroutine\": null, ");
            fprintf(f, "\"allocations_per_op\": %.6f", is_mem ? 0.0 : r->allocs_per_op);
            if (r->note) fprintf(f, ", \"note\": \"%s\"", r->note);
            fprintf(f, "}");
            first = 0;
        }
        fprintf(f, "\n  ]\n}\n");
        fclose(f);
        printf("\nwrote %s\n", json);
    }
    if (svg) write_svg(svg, cpu, cores);
    if (g_failures) {
        printf("%d contender run(s) crashed or gave a wrong checksum\n", g_failures);
        return 1;
    }
    printf("all checksums correct\n");
    return 0;
}
