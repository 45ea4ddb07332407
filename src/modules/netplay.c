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
    return ((size_t)frames + 1u) * input_size;
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
    CORRAL__REQUIRE_AT(s, !t->stopped, CORRAL_ERR_BAD_DESC, __func__, CORRAL__NOH, NULL,
                       "the sync test stopped on the ring's error mid-frame (corral_synctest_begin starts it again)", false);
    CORRAL__REQUIRE_AT(s, input || !t->desc.input_size, CORRAL_ERR_NULL_ARG, __func__, CORRAL__NOH, NULL, NULL, false);
    const uint64_t f = t->frames_run, n = t->desc.frames;
    if (t->desc.input_size) memcpy(corral__synctest_input(t, f), input, t->desc.input_size);
    if (!corral__synctest_keep(t, f)) return false; /* the ring's error stands */
    t->desc.frame(s, t->desc.input_size ? corral__synctest_input(t, f) : NULL, t->desc.user);
    t->hash[f % (CORRAL_SYNCTEST_MAX_FRAMES + 1u)] = corral_state_hash(s);
    t->frames_run = f + 1u;
    /* the frames from `from` to f again, from the state before `from` */
    const uint64_t from = f + 1u > n ? f + 1u - n : 0u;
    if (!corral_restore_kept(s, (uint32_t)from)) { /* nothing restored: the state is frame f's first run */
        t->stopped = true;
        return false;
    }
    for (uint64_t g = from; g <= f; g++) {
        if (g > from && !corral__synctest_keep(t, g)) { /* the state is the one before frame g */
            t->stopped = true;
            return false;
        }
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

/* the type is a label for the words, not state: the coroutine's hash holds its type's name */
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

/* the named point a coroutine waits at (a body opened with
   CORRAL_BEGIN_AT), or NULL: unnamed points have only their line, which a
   load does not carry over from another build */
static const char *corral__point_name(const corral_sched *s, const corral_co_info *in)
{
    const corral_co *co = corral__resolve(s, in->handle, &(corral_error){0});
    const uint32_t pt = co ? co->resume & CORRAL__POINT_MASK : 0u;
    return co && in->type && in->type->points && pt >= 1 && pt <= in->type->point_count ? in->type->points[pt - 1] : NULL;
}

/* a coroutine as the game knows it: type, handle, where it is (its named
   point, its file:line), what it waits on */
static void corral__say_co(corral__say *o, const corral_sched *s, const corral_co_info *in)
{
    corral__say_f(o, "%s 0x%06x:%u", in->type_name, in->handle.index, in->handle.gen);
    const char *point = corral__point_name(s, in);
    if (point) corral__say_f(o, " at point %s", point);
    if (in->line) {
        const char *file = in->file ? in->file : "?";
        for (const char *c = file; *c; c++)
            if (*c == '/' || *c == '\\') file = c + 1; /* its base name, as the chain prints it */
        corral__say_f(o, point ? ", %s:%u" : " at %s:%u", file, in->line);
    }
    corral__say_f(o, " (%s", corral_co_state_str(in->state));
    if (in->wait != CORRAL_WAIT_NONE) corral__say_f(o, " on %s", corral_wait_kind_str(in->wait));
    corral__say_f(o, ")");
}

/* a field's value as a desync needs it: a float to the last bit, a
   handle with whether it names something live, other bytes from the first
   that differs from `other` (NULL: as the inspector prints it) */
static void corral__say_value(const corral_sched *s, const corral_field *f, const unsigned char *p,
                              const unsigned char *other, char *buf, size_t cap)
{
    if (f->kind == CORRAL_FIELD_FLOAT && (f->size == 4 || f->size == 8)) {
        double v;
        if (f->size == 4) {
            float x;
            memcpy(&x, p, sizeof x);
            v = (double)x;
        } else {
            memcpy(&v, p, sizeof v);
        }
        snprintf(buf, cap, "%.17g", v);
        return;
    }
    corral_field_text(s, f, p, buf, cap);
    if (f->kind >= CORRAL_FIELD_HANDLE && f->kind < CORRAL_FIELD_KIND_COUNT && f->size == 8) {
        corral_handle h;
        memcpy(&h, p, sizeof h);
        const size_t at = strlen(buf);
        if (f->kind == CORRAL_FIELD_HANDLE && at < cap)
            snprintf(buf + at, cap - at, " (%s)", corral_alive(s, h) ? "live" : "ended");
        return;
    }
    if (f->kind == CORRAL_FIELD_OTHER && other) {
        uint32_t i = 0;
        while (i < f->size && p[i] == other[i]) i++;
        const size_t at = strlen(buf);
        if (i < f->size && at < cap) snprintf(buf + at, cap - at, " (byte %u: 0x%02x)", i, p[i]);
    }
}

/* the first field of two coroutines of one type that the state hash
   takes differently (its bounds, its pointers, its handles by index and
   liveness, as snapshot.c hashes it): said, true; a type without fields:
   the first byte of the context that differs */
static bool corral__say_fields(corral__say *o, const corral_sched *a, const corral_sched *b, const corral_co_info *x,
                               const corral_co_info *y)
{
    uint32_t n = 0;
    const corral_field *f = x->type->fields ? x->type->fields(&n) : NULL;
    const unsigned char *cx = (const unsigned char *)x->ctx, *cy = (const unsigned char *)y->ctx;
    if (!f || n == 0) {
        for (uint32_t i = 0; i < x->type->ctx_size; i++)
            if (cx[i] != cy[i]) {
                corral__say_f(o, ": its context's byte %u is 0x%02x against 0x%02x", i, cx[i], cy[i]);
                return true;
            }
        return false;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (corral__field_piece(a, x->type, &f[i], cx) == corral__field_piece(b, y->type, &f[i], cy)) continue;
        char va[128], vb[128];
        corral__say_value(a, &f[i], cx + f[i].offset, cy + f[i].offset, va, sizeof va);
        corral__say_value(b, &f[i], cy + f[i].offset, cx + f[i].offset, vb, sizeof vb);
        corral__say_f(o, ": field %s is %s against %s", f[i].name, va, vb);
        return true;
    }
    return false;
}

/* the first clock two schedulers differ on (their pieces said they do) */
static void corral__say_clocks(corral__say *o, const corral_sched *a, const corral_sched *b)
{
    corral__say_f(o, "the clocks: ");
    if (a->now.frame != b->now.frame) {
        corral__say_f(o, "frame %llu against %llu", (unsigned long long)a->now.frame, (unsigned long long)b->now.frame);
        return;
    }
    const corral__domains *A = corral__domains_of(a), *B = corral__domains_of(b);
    for (uint32_t d = 0; d < A->count && d < B->count; d++) {
        if (memcmp(&A->d[d].time, &B->d[d].time, sizeof A->d[d].time) != 0) {
            corral__say_f(o, "domain %u's time %.17g s against %.17g s", d, A->d[d].time, B->d[d].time);
            return;
        }
        if (A->d[d].scale != B->d[d].scale || A->d[d].paused != B->d[d].paused || A->d[d].parent != B->d[d].parent) {
            corral__say_f(o, "domain %u's scale %.9g%s against %.9g%s", d, (double)A->d[d].scale,
                          A->d[d].paused ? " (paused)" : "", (double)B->d[d].scale, B->d[d].paused ? " (paused)" : "");
            return;
        }
    }
    if (memcmp(&a->now.unscaled_time, &b->now.unscaled_time, sizeof a->now.unscaled_time) != 0)
        corral__say_f(o, "real time %.17g s against %.17g s", a->now.unscaled_time, b->now.unscaled_time);
    else if (memcmp(&a->now.fixed_time, &b->now.fixed_time, sizeof a->now.fixed_time) != 0)
        corral__say_f(o, "fixed-update time %.17g s against %.17g s", a->now.fixed_time, b->now.fixed_time);
    else
        corral__say_f(o, "the frame's position %u against %u", a->now.frame_pos, b->now.frame_pos);
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
        corral__say_clocks(&o, a, b);
        return true;
    }
    corral__say_f(&o, "frame %llu: ", (unsigned long long)corral_frame(a));
    uint32_t ca = 0, cb = 0;
    corral_co_info x, y;
    bool hx = corral_next_co(a, &ca, &x), hy = corral_next_co(b, &cb, &y);
    for (; hx || hy; hx = corral_next_co(a, &ca, &x), hy = corral_next_co(b, &cb, &y)) {
        if (!hy || (hx && x.handle.index < y.handle.index)) {
            corral__say_f(&o, "coroutine ");
            corral__say_co(&o, a, &x);
            corral__say_f(&o, " is only in the first");
            return true;
        }
        if (!hx || y.handle.index < x.handle.index) {
            corral__say_f(&o, "coroutine ");
            corral__say_co(&o, b, &y);
            corral__say_f(&o, " is only in the second");
            return true;
        }
        const corral_co *cx = corral__resolve(a, x.handle, &(corral_error){0}), *cy = corral__resolve(b, y.handle, &(corral_error){0});
        if (cx && cy && corral__co_piece(a, cx) == corral__co_piece(b, cy)) continue;
        const char *px = corral__point_name(a, &x), *py = corral__point_name(b, &y);
        corral__say_f(&o, "coroutine ");
        corral__say_co(&o, a, &x);
        if (x.type != y.type && strcmp(x.type_name, y.type_name) != 0) {
            corral__say_f(&o, ": type %s against %s", x.type_name, y.type_name);
        } else if (x.state != y.state || x.wait != y.wait) {
            corral__say_f(&o, ": against ");
            corral__say_co(&o, b, &y);
        } else if ((px || py) && !(px && py && strcmp(px, py) == 0)) {
            corral__say_f(&o, ": at point %s against %s", px ? px : "(unnamed)", py ? py : "(unnamed)");
        } else if (!px && !py && x.line != y.line) { /* a named point is its name: a loaded one has no line */
            corral__say_f(&o, ": at line %u against %u", x.line, y.line);
        } else if (!corral__say_fields(&o, a, b, &x, &y)) {
            corral__say_f(&o, ": its wait, links, point, pause or domain (time left %.17g against %.17g)", x.left, y.left);
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

bool corral_synctest_describe(corral_synctest *t, corral_sched *scratch, void *buf, size_t cap, char *words,
                              size_t words_cap)
{
    if (words && words_cap) words[0] = 0;
    if (!t || !corral__check(t->sched) || !corral__check(scratch)) return false;
    corral_sched *s = t->sched;
    CORRAL__REQUIRE_AT(s, words && words_cap && (buf || !cap), CORRAL_ERR_NULL_ARG, __func__, CORRAL__NOH, NULL, NULL, false);
    CORRAL__REQUIRE_AT(s, t->desynced, CORRAL_ERR_BAD_DESC, __func__, CORRAL__NOH, NULL,
                       "the sync test has found no desync to describe", false);
    CORRAL__REQUIRE_AT(s, scratch != s, CORRAL_ERR_BAD_DESC, __func__, CORRAL__NOH, NULL,
                       "scratch is the scheduler under test: give a second one of the same desc and registry", false);
    const uint64_t g = t->desync.frame;
    /* the run the test stopped at, beside; then the frame once more from its kept start */
    const size_t n = corral_snapshot(s, buf, cap);
    if (!n) {
        snprintf(words, words_cap, "%s", corral_last_error_detail(s));
        return false;
    }
    if (!corral_restore(scratch, buf, n)) {
        snprintf(words, words_cap, "scratch: %s", corral_last_error_detail(scratch));
        return false;
    }
    if (!corral_restore_kept(s, (uint32_t)g)) {
        snprintf(words, words_cap, "%s", corral_last_error_detail(s));
        return false;
    }
    t->desc.frame(s, t->desc.input_size ? corral__synctest_input(t, g) : NULL, t->desc.user);
    if (corral_desync_describe(scratch, s, words, words_cap)) return true;
    snprintf(words, words_cap, "frame %llu played alike twice more: what set its first run apart is not in the state",
             (unsigned long long)corral_frame(s));
    return false;
}
