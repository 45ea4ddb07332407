/*
    netplay.c -- what a rollback game between peers needs of corral
    besides its snapshots: the sync test (API.md, "The sync test"), the
    state's pieces compared, and a desync's cause in words (API.md, "A
    desync's cause").

    The sync test: every frame the game's frame runs with its input, then
    the last `frames` frames are rewound from kept snapshots (snapshot.c's
    ring) and played again with the inputs they had; each frame played
    again must reach the state hash its first run reached. The first that
    does not is a step that does not follow from its state and input:
    reported at once, with its frame and both hashes. Its state is the
    caller's corral_synctest and the inputs' memory (desc.memory): nothing
    of it is in the scheduler's block, which the rewinds overwrite.

    A desync's cause: two schedulers of one build compared in the order
    the state hash reads them (snapshot.c's pieces), the first difference
    said in the game's words: the clocks, a coroutine (its fields by name,
    through the inspector's field text: export.c), the run order, a pool.
*/
#include "../corral_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* the input of frame f, in the ring of frames + 1 inputs */
static unsigned char *corral__synctest_input(const corral_synctest *t, uint64_t f)
{
    return (unsigned char *)t->desc.memory + (size_t)(f % (t->desc.frames + 1u)) * t->desc.input_size;
}

size_t corral_synctest_memory_size(uint32_t frames, uint32_t input_size)
{
    if (frames == 0) frames = CORRAL_SYNCTEST_DEFAULT_FRAMES;
    return (size_t)(frames + 1u) * input_size;
}

bool corral_synctest_begin(corral_synctest *t, corral_sched *s, const corral_synctest_desc *d)
{
    if (!corral__check(s)) return false;
    CORRAL__REQUIRE_AT(s, t && d && d->frame, CORRAL_ERR_NULL_ARG, __func__, CORRAL__NOH, NULL, NULL, false);
    memset(t, 0, sizeof *t);
    t->desc = *d;
    if (!t->desc.frames) t->desc.frames = CORRAL_SYNCTEST_DEFAULT_FRAMES;
    CORRAL__REQUIRE_AT(s, t->desc.frames <= CORRAL_SYNCTEST_MAX_FRAMES, CORRAL_ERR_BAD_DESC, __func__, CORRAL__NOH, NULL,
                       "desc.frames is more than CORRAL_SYNCTEST_MAX_FRAMES", false);
    CORRAL__REQUIRE_AT(s, !t->desc.input_size || (t->desc.memory && t->desc.memory_size >= corral_synctest_memory_size(t->desc.frames, t->desc.input_size)),
                       CORRAL_ERR_BAD_DESC, __func__, CORRAL__NOH, NULL,
                       "desc.memory holds fewer bytes than corral_synctest_memory_size(frames, input_size)", false);
    t->sched = s;
    return true;
}

/* the state before frame f kept under f's tag */
static bool corral__synctest_keep(corral_synctest *t, uint64_t f)
{
    return corral_snapshot_keep(t->sched, (uint32_t)f) != 0;
}

bool corral_synctest_frame(corral_synctest *t, const void *input)
{
    if (!t || !corral__check(t->sched)) return false;
    corral_sched *s = t->sched;
    CORRAL__REQUIRE_AT(s, !t->desynced, CORRAL_ERR_BAD_DESC, __func__, CORRAL__NOH, NULL,
                       "the sync test found a desync already (corral_synctest_begin starts it again)", false);
    CORRAL__REQUIRE_AT(s, input || !t->desc.input_size, CORRAL_ERR_NULL_ARG, __func__, CORRAL__NOH, NULL, NULL, false);
    const uint64_t f = t->frames_run, n = t->desc.frames;
    if (t->desc.input_size) memcpy(corral__synctest_input(t, f), input, t->desc.input_size);
    if (!corral__synctest_keep(t, f)) return false; /* the ring's error stands */
    t->desc.frame(s, t->desc.input_size ? corral__synctest_input(t, f) : NULL, t->desc.user);
    t->hash[f % (CORRAL_SYNCTEST_MAX_FRAMES + 1u)] = corral_state_hash(s);
    t->frames_run = f + 1u;
    /* the frames from `from` to f again, from the state before `from` */
    const uint64_t from = f + 1u > n ? f + 1u - n : 0u;
    if (!corral_restore_kept(s, (uint32_t)from)) return false;
    for (uint64_t g = from; g <= f; g++) {
        if (g > from && !corral__synctest_keep(t, g)) return false;
        t->desc.frame(s, t->desc.input_size ? corral__synctest_input(t, g) : NULL, t->desc.user);
        t->frames_played_again++;
        const uint64_t want = t->hash[g % (CORRAL_SYNCTEST_MAX_FRAMES + 1u)], got = corral_state_hash(s);
        if (got != want) { /* this frame, from the same state and input, went elsewhere */
            t->desynced = true;
            t->desync.frame = g;
            t->desync.depth = (uint32_t)(f - g + 1u);
            t->desync.want = want;
            t->desync.got = got;
            return false;
        }
    }
    return true;
}

size_t corral_state_pieces_diff(const corral_state_piece *a, size_t na, const corral_state_piece *b, size_t nb)
{
    size_t i = 0;
    for (; i < na && i < nb; i++)
        if (a[i].kind != b[i].kind || a[i].index != b[i].index || a[i].hash != b[i].hash) return i;
    return i;
}

/* ---- a desync's cause */

typedef struct corral__say {
    char *buf;
    size_t cap, at;
} corral__say;
static void corral__say_f(corral__say *o, const char *fmt, ...) CORRAL__PRINTF(2, 3);
static void corral__say_f(corral__say *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(o->buf + o->at, o->at < o->cap ? o->cap - o->at : 0, fmt, ap);
    va_end(ap);
    if (n > 0) o->at += (size_t)n;
    if (o->at >= o->cap) o->at = o->cap ? o->cap - 1 : 0;
}

/* a coroutine as the game knows it: type, handle, where it is, what it waits on */
static void corral__say_co(corral__say *o, const corral_co_info *in)
{
    corral__say_f(o, "%s 0x%06x:%u", in->type_name, in->handle.index, in->handle.gen);
    if (in->line) {
        const char *file = in->file ? in->file : "?";
        for (const char *c = file; *c; c++)
            if (*c == '/' || *c == '\\') file = c + 1; /* its base name, as the chain prints it */
        corral__say_f(o, " at %s:%u", file, in->line);
    }
    corral__say_f(o, " (%s", corral_co_state_str(in->state));
    if (in->wait != CORRAL_WAIT_NONE) corral__say_f(o, " on %s", corral_wait_kind_str(in->wait));
    corral__say_f(o, ")");
}

/* the first field of two coroutines of one type whose bytes differ
   (pointer fields left out, as the state hash leaves them): said, true */
static bool corral__say_fields(corral__say *o, const corral_sched *a, const corral_sched *b, const corral_co_info *x,
                               const corral_co_info *y)
{
    uint32_t n = 0;
    const corral_field *f = x->type->fields ? x->type->fields(&n) : NULL;
    for (uint32_t i = 0; i < n; i++) {
        if (f[i].kind == CORRAL_FIELD_POINTER) continue;
        const unsigned char *p = (const unsigned char *)x->ctx + f[i].offset, *q = (const unsigned char *)y->ctx + f[i].offset;
        if (!memcmp(p, q, f[i].size)) continue;
        char va[96], vb[96];
        corral_field_text(a, &f[i], p, va, sizeof va);
        corral_field_text(b, &f[i], q, vb, sizeof vb);
        if (!strcmp(va, vb)) continue; /* the same in the game's words (a handle's generation) */
        corral__say_f(o, ": field %s is %s against %s", f[i].name, va, vb);
        return true;
    }
    return false;
}

bool corral_desync_describe(const corral_sched *a, const corral_sched *b, char *buf, size_t cap)
{
    if (!corral__check(a) || !corral__check(b)) return false;
    CORRAL__REQUIRE_AT(a, buf && cap, CORRAL_ERR_NULL_ARG, __func__, CORRAL__NOH, NULL, NULL, false);
    corral__say o = {buf, cap, 0};
    buf[0] = 0;
    corral_state_piece pa, pb;
    corral_state_pieces(a, &pa, 1);
    corral_state_pieces(b, &pb, 1);
    if (pa.hash != pb.hash) {
        corral__say_f(&o, "the clocks: frame %llu against %llu, game time %.9g s against %.9g s",
                      (unsigned long long)corral_frame(a), (unsigned long long)corral_frame(b), corral_time(a),
                      corral_time(b));
        return true;
    }
    corral__say_f(&o, "frame %llu: ", (unsigned long long)corral_frame(a));
    uint32_t ca = 0, cb = 0;
    corral_co_info x, y;
    bool hx = corral_next_co(a, &ca, &x), hy = corral_next_co(b, &cb, &y);
    for (; hx || hy; hx = corral_next_co(a, &ca, &x), hy = corral_next_co(b, &cb, &y)) {
        if (!hy || (hx && x.handle.index < y.handle.index)) {
            corral__say_f(&o, "coroutine ");
            corral__say_co(&o, &x);
            corral__say_f(&o, " is only in the first");
            return true;
        }
        if (!hx || y.handle.index < x.handle.index) {
            corral__say_f(&o, "coroutine ");
            corral__say_co(&o, &y);
            corral__say_f(&o, " is only in the second");
            return true;
        }
        const corral_co *cx = corral__resolve(a, x.handle, &(corral_error){0}), *cy = corral__resolve(b, y.handle, &(corral_error){0});
        if (cx && cy && corral__co_piece(a, cx) == corral__co_piece(b, cy)) continue;
        corral__say_f(&o, "coroutine ");
        corral__say_co(&o, &x);
        if (x.type != y.type && strcmp(x.type_name, y.type_name) != 0) {
            corral__say_f(&o, ": type %s against %s", x.type_name, y.type_name);
        } else if (x.state != y.state || x.wait != y.wait) {
            corral__say_f(&o, ": against ");
            corral__say_co(&o, &y);
        } else if (x.line != y.line) {
            corral__say_f(&o, ": at line %u against %u", x.line, y.line);
        } else if (!corral__say_fields(&o, a, b, &x, &y)) {
            corral__say_f(&o, ": its wait or links (time left %.9g against %.9g)", x.left, y.left);
        }
        return true;
    }
    /* every coroutine alike: the order, then the pools */
    static const char *const pools[] = {"signals", "futures", "channels", "semaphores and wait groups"};
    corral_state_piece tail_a[1 + CORRAL__POOL_COUNT], tail_b[1 + CORRAL__POOL_COUNT];
    corral__state_tail(a, tail_a);
    corral__state_tail(b, tail_b);
    for (uint32_t i = 0; i < 1 + CORRAL__POOL_COUNT; i++) {
        if (tail_a[i].hash == tail_b[i].hash) continue;
        if (tail_a[i].kind == CORRAL_PIECE_ORDER) corral__say_f(&o, "the order the coroutines run in, or the predicates' lists");
        else corral__say_f(&o, "the %s (their values, counts or waiters)", pools[tail_a[i].index]);
        return true;
    }
    o.at = 0;
    buf[0] = 0;
    return false;
}
