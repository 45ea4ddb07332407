/*
    export.c -- the live inspector, the JSON report, the Chrome trace, the
    SVG chart and the budget emitter.

    Everything here reads the arena and writes to what the caller gives: a
    FILE, or a corral_writer (its callback, or its buffer); nothing
    allocates. Formats are documented in docs/PROFILING.md.
*/
#include "../corral_internal.h"
#include "../core/arena.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

/* ---------------------------------------------------------------- output */

/* Where an output goes: file, else w; call names the public function for
   the errors it reports. */
typedef struct corral__out {
    FILE *file;
    corral_writer *w;
    const char *call;
} corral__out;

static const void *corral__out_target(const corral__out *o)
{
    return o->file ? (const void *)o->file : (const void *)o->w;
}

/* a writer's output starts terminated, so an empty one is "" */
static corral__out corral__out_to(corral_writer *w, const char *call)
{
    if (w && !w->fn && w->buf && w->cap) w->buf[w->len < w->cap ? w->len : w->cap - 1] = '\0';
    return (corral__out){NULL, w, call};
}

/* n bytes of text: to the file, the callback, or the buffer (cut at its
   end, always terminated; len counts every byte all the same) */
static void corral__pn(corral__out *o, const char *text, size_t n)
{
    if (n == 0) return;
    if (o->file) {
        fwrite(text, 1, n, o->file);
        return;
    }
    corral_writer *w = o->w;
    if (w->fn) {
        w->fn(w->user, text, n);
    } else if (w->buf && w->len + 1 < w->cap) {
        size_t k = n < w->cap - 1 - w->len ? n : w->cap - 1 - w->len;
        memcpy(w->buf + w->len, text, k);
        w->buf[w->len + k] = '\0';
    }
    w->len += n;
}
static void corral__ps(corral__out *o, const char *text) { corral__pn(o, text, strlen(text)); }
static void corral__pc(corral__out *o, char c) { corral__pn(o, &c, 1); }

CORRAL__PRINTF(2, 3) static void corral__pf(corral__out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (o->file) {
        vfprintf(o->file, fmt, ap);
    } else if (!o->w->fn) { /* into the buffer where it has room; counted whole either way */
        corral_writer *w = o->w;
        const bool room = w->buf && w->len < w->cap;
        int n = vsnprintf(room ? w->buf + w->len : NULL, room ? w->cap - w->len : 0, fmt, ap);
        if (n > 0) w->len += (size_t)n;
    } else { /* a callback's piece, at most CORRAL_WRITER_PIECE bytes */
        char piece[CORRAL_WRITER_PIECE + 1];
        int n = vsnprintf(piece, sizeof piece, fmt, ap);
        if (n > 0) corral__pn(o, piece, (size_t)n < sizeof piece ? (size_t)n : sizeof piece - 1);
    }
    va_end(ap);
}

/* ---------------------------------------------------------------- inspector */

const char *corral_co_state_str(corral_co_state st)
{
    switch (st) {
    case CORRAL_CO_RUNNING: return "running";
    case CORRAL_CO_QUEUED: return "queued";
    case CORRAL_CO_WAITING: return "waiting";
    case CORRAL_CO_CALLING: return "calling";
    case CORRAL_CO_PAUSED: return "paused";
    default: return "none";
    }
}

const char *corral_wait_kind_str(corral_wait_kind k)
{
    static const char *const names[CORRAL_WAIT_KIND_COUNT] = {
#define CORRAL__X(id, name, how, phase, part) name,
        CORRAL_WAIT_KINDS(CORRAL__X)
#undef CORRAL__X
    };
    return (unsigned)k < (unsigned)CORRAL_WAIT_KIND_COUNT ? names[k] : "unknown";
}

static const char *corral__phase_str(corral_phase p)
{
    switch (p) {
    case CORRAL_PHASE_FIXED_UPDATE: return "fixed update";
    case CORRAL_PHASE_UPDATE: return "update";
    case CORRAL_PHASE_LATE_UPDATE: return "late update";
    case CORRAL_PHASE_END_OF_FRAME: return "end of frame";
    default: return "default";
    }
}

/* the soonest of its timer waits: seconds (frames) until due, else 0 */
static double corral__time_left(const corral_sched *s, const corral_co *co, const corral__meta *m)
{
    const corral__node *N = corral__nodes(s);
    double left = 0.0;
    bool any = false;
    corral__sleep_view sv;
    if (corral__sleep_view_of(s, co, &sv)) return sv.left > 0.0 ? sv.left : 0.0;
    for (uint32_t i = corral__co_wait(s, co, m); i != CORRAL__NIL; i = N[i].sibling) {
        if (!corral__kind_is(N[i].kind, CORRAL__HOW_TIMER) || N[i].attached == 0) continue;
        double t = corral__timer_left(s, &N[i]);
        if (!any || t < left) left = t;
        any = true;
    }
    return left > 0.0 ? left : 0.0;
}

static void corral__info(const corral_sched *s, const corral_co *co, corral_co_info *out)
{
    const corral__type_entry *te = &corral__types(s)[co->type];
    const corral__meta *m = corral__meta_of(s, co);
    const corral__node *N = corral__nodes(s);
    memset(out, 0, sizeof *out);
    out->type = te->vt;
    out->type_name = te->vt->name;
    out->handle = corral__handle_of(s, co);
    out->phase = corral__public_phase(co->flags & CORRAL__PHASE_MASK);
    out->ctx = CORRAL__AT(co, te->ctx_off);
    out->age_frames = corral__co_age(s, m); /* 0 without timing */
    if (corral__co_wait(s, co, m) != CORRAL__NIL)
        out->wait = corral__co_mode(s, co, m) == CORRAL__MODE_ALL   ? CORRAL_WAIT_ALL
                    : corral__co_mode(s, co, m) == CORRAL__MODE_ANY ? CORRAL_WAIT_ANY
                                                  : (corral_wait_kind)N[corral__co_wait(s, co, m)].kind;
    corral__sleep_view sv;
    if (corral__sleep_view_of(s, co, &sv)) out->wait = (corral_wait_kind)sv.kind;
    out->file = te->vt->file;
    out->line = co->resume >> 16;
    if (corral__co_awaits_arms(s, m)) {
        out->call = corral__co_mode(s, co, m) == CORRAL__MODE_RACE ? CORRAL_CALL_RACE : CORRAL_CALL_SYNC;
        out->wait = CORRAL_WAIT_NONE;
        for (uint32_t i = corral__co_wait(s, co, m); i != CORRAL__NIL; i = N[i].sibling) {
            if (N[i].kind != CORRAL__NODE_ARM || N[i].u.t.target == CORRAL__NIL) continue;
            if (out->arms++ == 0) out->child = corral__handle_of(s, corral__co_of_global(s, N[i].u.t.target));
        }
    } else if (corral__side_of(s, m)->child != CORRAL__NIL) {
        out->call = CORRAL_CALL_ONE;
    }
    out->left = corral__time_left(s, co, m);
    out->domain = corral__co_domain(s, m);
    if (s->nodes.text_off && corral__co_wait(s, co, m) != CORRAL__NIL && N[corral__co_wait(s, co, m)].kind != CORRAL__NODE_ARM)
        out->wait_text = ((const char *const *)(const void *)CORRAL__AT(s, s->nodes.text_off))[corral__co_wait(s, co, m)];
    if (corral__is_running(s, co)) out->state = CORRAL_CO_RUNNING;
    else if (corral__paused(co->state)) out->state = CORRAL_CO_PAUSED;
    else if (corral__calling(s, m)) out->state = CORRAL_CO_CALLING;
    else if (co->state == CORRAL__WAITING) out->state = CORRAL_CO_WAITING;
    else out->state = CORRAL_CO_QUEUED;
    for (uint32_t i = corral__side_of(s, m)->groups; i != CORRAL__NIL; i = N[i].sibling) {
        if (N[i].kind == CORRAL__NODE_OWNER) out->owner = N[i].u.g.owner;
        else if (N[i].kind == CORRAL__NODE_TAG) out->tags |= 1u << N[i].u.g.tag;
    }
    if (corral__side_of(s, m)->parent != CORRAL__NIL) out->parent = corral__handle_of(s, corral__co_of_global(s, corral__side_of(s, m)->parent));
    if (corral__side_of(s, m)->child != CORRAL__NIL) out->child = corral__handle_of(s, corral__co_of_global(s, corral__side_of(s, m)->child));
}

bool corral_next_co(const corral_sched *s, uint32_t *cursor, corral_co_info *out)
{
    if (!corral__check(s)) return false;
    CORRAL__REQUIRE(s, cursor && out, CORRAL_ERR_NULL_ARG, false);
    for (uint32_t g = *cursor; g < s->arena.total_slots; g++) {
        const corral_co *co = corral__co_of_global(s, g);
        if (!corral__state_alive(co->state)) continue;
        corral__info(s, co, out);
        *cursor = g + 1;
        return true;
    }
    *cursor = s->arena.total_slots;
    return false;
}

bool corral_co_info_of(const corral_sched *s, corral_handle h, corral_co_info *out)
{
    if (!corral__check(s)) return false;
    corral_error err;
    const corral_co *co = corral__resolve(s, h, &err);
    if (!co || !out) {
        corral__fail_at(s, NULL, co ? CORRAL_ERR_NULL_ARG : err, __func__, h, NULL, NULL);
        return false;
    }
    corral__info(s, co, out);
    return true;
}

/* One field's value as text. */
bool corral_field_text(const corral_sched *s, const corral_field *f, const void *value, char *buf, size_t cap)
{
    if (!corral__check(s)) return false;
    CORRAL__REQUIRE(s, f && value && buf && cap, CORRAL_ERR_NULL_ARG, false);
    const unsigned char *p = (const unsigned char *)value;
    buf[0] = 0;
    int64_t i = 0;
    uint64_t u = 0;
    switch (f->kind) {
    case CORRAL_FIELD_INT:
        if (f->size == 1) i = *(const int8_t *)(const void *)p;
        else if (f->size == 2) { int16_t v; memcpy(&v, p, 2); i = v; }
        else if (f->size == 4) { int32_t v; memcpy(&v, p, 4); i = v; }
        else if (f->size == 8) memcpy(&i, p, 8);
        else break;
        snprintf(buf, cap, "%" PRId64, i);
        return true;
    case CORRAL_FIELD_UINT:
        if (f->size == 1) u = *p;
        else if (f->size == 2) { uint16_t v; memcpy(&v, p, 2); u = v; }
        else if (f->size == 4) { uint32_t v; memcpy(&v, p, 4); u = v; }
        else if (f->size == 8) memcpy(&u, p, 8);
        else break;
        snprintf(buf, cap, "%" PRIu64, u);
        return true;
    case CORRAL_FIELD_FLOAT:
        if (f->size == sizeof(float)) { float v; memcpy(&v, p, sizeof v); snprintf(buf, cap, "%g", (double)v); return true; }
        if (f->size == sizeof(double)) { double v; memcpy(&v, p, sizeof v); snprintf(buf, cap, "%g", v); return true; }
        break;
    case CORRAL_FIELD_BOOL:
        snprintf(buf, cap, "%s", *p ? "true" : "false");
        return true;
    case CORRAL_FIELD_POINTER: {
        void *v;
        memcpy(&v, p, sizeof v);
        snprintf(buf, cap, "%p", v);
        return true;
    }
    case CORRAL_FIELD_HANDLE:
    case CORRAL_FIELD_SIGNAL:
    case CORRAL_FIELD_FUTURE:
    case CORRAL_FIELD_CHANNEL:
    case CORRAL_FIELD_SEMAPHORE:
    case CORRAL_FIELD_WAITGROUP: {
        uint32_t v[2];
        if (f->size != sizeof v) break;
        memcpy(v, p, sizeof v);
        snprintf(buf, cap, "0x%06x:%u", v[0], v[1]);
        return true;
    }
    case CORRAL_FIELD_OTHER:
    case CORRAL_FIELD_KIND_COUNT:
        break;
    }
    if (s->prof.formatter.fn && s->prof.formatter.fn(f, p, buf, cap, s->prof.formatter.user_data)) return true;
    size_t at = 0; /* hex bytes, at most 16 */
    for (uint32_t k = 0; k < f->size && k < 16 && at + 3 < cap; k++)
        at += (size_t)snprintf(buf + at, cap - at, "%02x", p[k]);
    if (f->size > 16 && at + 4 < cap) snprintf(buf + at, cap - at, "...");
    return true;
}

static const char *corral__base_name(const char *path);

static void corral__print_info(const corral_sched *s, const corral_co_info *in, corral__out *out)
{
    corral__pf(out, "%s 0x%06x:%u  %s", in->type_name, in->handle.index, in->handle.gen, corral_co_state_str(in->state));
    if (in->wait != CORRAL_WAIT_NONE) corral__pf(out, " (%s)", corral_wait_kind_str(in->wait));
    if (in->call == CORRAL_CALL_RACE || in->call == CORRAL_CALL_SYNC)
        corral__pf(out, " (%s of %u)", in->call == CORRAL_CALL_RACE ? "race" : "sync", in->arms);
    if (in->line) corral__pf(out, " at %s:%u", corral__base_name(in->file), in->line);
    corral__pf(out, "  phase %s  age %" PRIu64 " frames", corral__phase_str(in->phase), in->age_frames);
    if (in->owner) corral__pf(out, "  owner %" PRIu64, in->owner);
    if (in->tags) corral__pf(out, "  tags 0x%x", in->tags);
    if (in->parent.gen) corral__pf(out, "  parent 0x%06x:%u", in->parent.index, in->parent.gen);
    if (in->child.gen) corral__pf(out, "  child 0x%06x:%u", in->child.index, in->child.gen);
    corral__pc(out, '\n');
    uint32_t n = 0;
    const corral_field *f = in->type->fields ? in->type->fields(&n) : NULL;
    size_t w = 0;
    for (uint32_t i = 0; i < n; i++) w = strlen(f[i].name) > w ? strlen(f[i].name) : w;
    for (uint32_t i = 0; i < n; i++) {
        char val[96];
        val[0] = 0;
        corral_field_text(s, &f[i], (const unsigned char *)in->ctx + f[i].offset, val, sizeof val);
        corral__pf(out, "    %-*s  %-14s = %s\n", (int)w, f[i].name, f[i].type_name, val);
    }
}

static bool corral__print_co(const corral_sched *s, corral_handle h, corral__out *out)
{
    corral_co_info in;
    if (!corral_co_info_of(s, h, &in)) return false;
    CORRAL__REQUIRE_AT(s, corral__out_target(out), CORRAL_ERR_NULL_ARG, out->call, CORRAL__NOH, NULL, NULL, false);
    corral__print_info(s, &in, out);
    return true;
}

static void corral__dump(const corral_sched *s, corral__out *out)
{
    if (!corral__check(s)) return;
    CORRAL__REQUIRE_AT(s, corral__out_target(out), CORRAL_ERR_NULL_ARG, out->call, CORRAL__NOH, NULL, NULL, );
    corral__pf(out, "corral: %u live coroutines at frame %" PRIu64 "\n", corral__live_read(s, NULL, NULL), s->now.frame);
    uint32_t cur = 0;
    corral_co_info in;
    while (corral_next_co(s, &cur, &in)) corral__print_info(s, &in, out);
}

/* ---------------------------------------------------------------- chains */

/* a source path's last component: what the text outputs print */
static const char *corral__base_name(const char *path)
{
    const char *b = path ? path : "?";
    for (const char *p = b; *p; p++)
        if (*p == '/' || *p == '\\') b = p + 1;
    return b;
}

/* What it waits for, as text: the wait and its time left, or what it awaits. */
static void corral__wait_text(const corral_sched *s, const corral_co *co, const corral_co_info *in, char *buf,
                              size_t cap)
{
    const corral__meta *m = corral__meta_of(s, co);
    const corral__node *N = corral__nodes(s);
    size_t at = 0;
#define CORRAL__PUT(...) (at += (size_t)snprintf(buf + at, at < cap ? cap - at : 0, __VA_ARGS__), at = at < cap ? at : cap)
    buf[0] = 0;
    if (in->state == CORRAL_CO_RUNNING) { CORRAL__PUT("running"); return; }
    if (in->state == CORRAL_CO_PAUSED) CORRAL__PUT("paused, ");
    if (in->call == CORRAL_CALL_RACE || in->call == CORRAL_CALL_SYNC) {
        CORRAL__PUT("%s of %u arm%s running", in->call == CORRAL_CALL_RACE ? "race" : "sync", in->arms,
                    in->arms == 1 ? "" : "s");
        return;
    }
    if (in->call == CORRAL_CALL_ONE) CORRAL__PUT(corral__co_wait(s, co, m) != CORRAL__NIL ? "call, unless " : "call");
    corral__sleep_view sv;
    if (corral__sleep_view_of(s, co, &sv)) { /* a plain sleep */
        CORRAL__PUT("%s", corral_wait_kind_str((corral_wait_kind)sv.kind));
        if (sv.heap == CORRAL__HEAP_FRAMES) CORRAL__PUT(", %.0f frame%s left", in->left, in->left == 1.0 ? "" : "s");
        else CORRAL__PUT(", %.3f s left", in->left);
        if (sv.heap != CORRAL__HEAP_FRAMES && sv.heap != CORRAL__HEAP_REAL && in->domain) CORRAL__PUT(" (domain %u)", in->domain);
        return;
    }
    if (corral__co_wait(s, co, m) == CORRAL__NIL) {
        if (in->call == CORRAL_CALL_NONE) CORRAL__PUT(co->state == CORRAL__DEFERRED ? "queued for the next frame" : "queued");
        return;
    }
    if (corral__co_mode(s, co, m) == CORRAL__MODE_ALL || corral__co_mode(s, co, m) == CORRAL__MODE_ANY) {
        uint32_t n = 0;
        for (uint32_t i = corral__co_wait(s, co, m); i != CORRAL__NIL; i = N[i].sibling) n += N[i].attached != 0;
        CORRAL__PUT("%s of %u waiting", corral__co_mode(s, co, m) == CORRAL__MODE_ALL ? "all" : "any", n);
    } else {
        const corral__node *n = &N[corral__co_wait(s, co, m)];
        const corral__wait_part *p = corral__wait_part_of(s, n->kind);
        char part[96];
        part[0] = 0;
        if (p && p->name) p->name(s, n, part, sizeof part);
        CORRAL__PUT("%s%s", corral_wait_kind_str((corral_wait_kind)n->kind), part);
    }
    if (in->wait_text && *in->wait_text) CORRAL__PUT(" %s", in->wait_text);
    if (corral__co_mode(s, co, m) == CORRAL__MODE_ONE) { /* what keeps it waiting, as it is now */
        const corral__node *n = &N[corral__co_wait(s, co, m)];
        const corral__wait_part *p = corral__wait_part_of(s, n->kind);
        char part[96];
        part[0] = 0;
        if (p && p->why) p->why(s, n, part, sizeof part);
        CORRAL__PUT("%s", part);
    }
    for (uint32_t i = corral__co_wait(s, co, m); i != CORRAL__NIL; i = N[i].sibling)
        if (corral__kind_is(N[i].kind, CORRAL__HOW_TIMER) && N[i].attached) {
            float span;
            memcpy(&span, &N[i].u.t.target, sizeof span); /* as it began (0: unknown, a loaded wait) */
            if (N[i].list == CORRAL__HEAP_FRAMES) CORRAL__PUT(", %.0f frame%s left", in->left, in->left == 1.0 ? "" : "s");
            else CORRAL__PUT(", %.3f s left", in->left);
            if (span > 0.0f) CORRAL__PUT(" of %g", (double)span);
            if (N[i].list != CORRAL__HEAP_FRAMES && N[i].list != CORRAL__HEAP_REAL && in->domain)
                CORRAL__PUT(" (domain %u)", in->domain);
            break;
        }
#undef CORRAL__PUT
}

/* one line of a chain: depth, type, handle, where, what */
static void corral__chain_line(const corral_sched *s, const corral_co *co, uint32_t depth, bool mark, corral__out *out)
{
    corral_co_info in;
    char what[160];
    corral__info(s, co, &in);
    corral__wait_text(s, co, &in, what, sizeof what);
    corral__pf(out, "%s%*s%s 0x%06x:%u  %s", mark ? "> " : "  ", (int)(2 * depth), "", in.type_name, in.handle.index,
               in.handle.gen, corral__base_name(in.file));
    if (in.line) corral__pf(out, ":%u", in.line);
    corral__pf(out, "  %s\n", what);
}

/* co and what it awaits, below it: a call chain iteratively, a race's or
   sync's arms each with its own (recursive, one level per race nested in
   a race) */
static void corral__chain_from(const corral_sched *s, const corral_co *co, uint32_t depth, const corral_co *mark,
                               corral__out *out)
{
    const corral__node *N = corral__nodes(s);
    while (co) {
        const corral__meta *m = corral__meta_of(s, co);
        corral__chain_line(s, co, depth, co == mark, out);
        depth++;
        if (corral__co_awaits_arms(s, m)) {
            for (uint32_t i = corral__co_wait(s, co, m); i != CORRAL__NIL; i = N[i].sibling)
                if (N[i].kind == CORRAL__NODE_ARM && N[i].u.t.target != CORRAL__NIL)
                    corral__chain_from(s, corral__co_of_global(s, N[i].u.t.target), depth, mark, out);
            return;
        }
        co = corral__side_of(s, m)->child != CORRAL__NIL ? corral__co_of_global(s, corral__side_of(s, m)->child) : NULL;
    }
}

static bool corral__print_chain(const corral_sched *s, corral_handle h, corral__out *out)
{
    if (!corral__check(s)) return false;
    corral_error err;
    const corral_co *co = corral__resolve(s, h, &err);
    CORRAL__REQUIRE_AT(s, co, err, out->call, h, NULL, NULL, false);
    CORRAL__REQUIRE_AT(s, corral__out_target(out), CORRAL_ERR_NULL_ARG, out->call, CORRAL__NOH, NULL, NULL, false);
    const corral_co *root = co;
    for (uint32_t n = 0; n <= s->arena.total_slots; n++) { /* up to the outermost caller */
        const corral__meta *m = corral__meta_of(s, root);
        if (corral__side_of(s, m)->parent == CORRAL__NIL) break;
        root = corral__co_of_global(s, corral__side_of(s, m)->parent);
    }
    corral__chain_from(s, root, 0, co, out);
    return true;
}

/* ---------------------------------------------------------------- JSON */

static void corral__json_str(corral__out *out, const char *str)
{
    const char *run = str ? str : "", *p = run;
    corral__pc(out, '"');
    for (; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c != '"' && c != '\\' && c >= 0x20) continue;
        corral__pn(out, run, (size_t)(p - run)); /* the plain run before it */
        if (c == '"' || c == '\\') corral__pf(out, "\\%c", c);
        else corral__pf(out, "\\u%04x", c);
        run = p + 1;
    }
    corral__pn(out, run, (size_t)(p - run));
    corral__pc(out, '"');
}

static void corral__json_pool(corral__out *out, const char *name, uint32_t used, uint32_t peak, uint32_t cap,
                              uint64_t failures, bool last)
{
    corral__pf(out, "    \"%s\": {\"used\": %u, \"peak\": %u, \"capacity\": %u, \"failures\": %" PRIu64 "}%s\n", name,
               used, peak, cap, failures, last ? "" : ",");
}

static void corral__report_json(const corral_sched *s, corral__out *out)
{
    if (!corral__stats_ok(out->call, s, corral__out_target(out))) return;
    corral_arena_stats a = {0};
    corral_pool_stats p = {0};
    corral_stats_arena(s, &a);
    corral_stats_pools(s, &p);
    corral__pf(out, "{\n  \"corral_report\": 1,\n  \"frame\": %" PRIu64 ",\n  \"time\": %.9g,\n  \"unscaled_time\": %.9g,\n",
               s->now.frame, corral__domains_of(s)->d[0].time, s->now.unscaled_time);
    corral__pf(out,
               "  \"arena\": {\"total_bytes\": %" PRIu64 ", \"slab_bytes\": %" PRIu64 ", \"slot_bytes\": %" PRIu64
               ", \"slot_bytes_peak\": %" PRIu64 ", \"ctx_bytes\": %" PRIu64 ", \"ctx_bytes_peak\": %" PRIu64
               ", \"padding_bytes\": %" PRIu64 ", \"live\": %u, \"live_peak\": %u, \"timing\": %s, \"tick_ns_last\": %" PRIu64
               ", \"tick_ns_max\": %" PRIu64 ", \"tick_ns_total\": %" PRIu64 "},\n",
               a.total_bytes, a.slab_bytes, a.slot_bytes, a.slot_bytes_peak, a.ctx_bytes, a.ctx_bytes_peak,
               a.slot_bytes - a.ctx_bytes, a.live, a.live_peak, s->prof.timing ? "true" : "false", a.tick_ns_last,
               a.tick_ns_max, a.tick_ns_total);
    corral__pf(out, "  \"pools\": {\n");
    corral__json_pool(out, "wait_nodes", p.wait_nodes, p.wait_nodes_peak, p.wait_nodes_capacity, p.wait_failures, false);
    corral__json_pool(out, "sleepers", p.sleepers, p.sleepers_peak, p.sleepers_capacity, p.sleepers_spilled, false);
    corral__json_pool(out, "group_nodes", p.group_nodes, p.group_nodes_peak, p.group_nodes_capacity, p.group_failures, false);
    corral__json_pool(out, "side_records", p.side_records, p.side_records_peak, p.side_records_capacity, p.side_failures, false);
    corral__json_pool(out, "signals", p.signals, p.signals_peak, p.signals_capacity, p.signal_failures, false);
    corral__json_pool(out, "futures", p.futures, p.futures_peak, p.futures_capacity, p.future_failures, false);
    corral__json_pool(out, "channels", p.channels, p.channels_peak, p.channels_capacity, p.channel_failures, false);
    corral__json_pool(out, "semaphores_and_waitgroups", p.counters, p.counters_peak, p.counters_capacity,
                      p.counter_failures, true);
    corral__pf(out, "  },\n  \"classes\": [\n");
    for (uint32_t i = 0; i < s->arena.class_count; i++) {
        corral_class_stats c;
        corral_stats_class(s, i, &c);
        corral__pf(out, "    {\"index\": %u, \"name\": ", i);
        corral__json_str(out, c.name);
        corral__pf(out,
                   ", \"slot_size\": %u, \"capacity\": %u, \"used\": %u, \"peak\": %u, \"headroom\": %u, \"retired\": %u"
                   ", \"failures\": %" PRIu64 ", \"ctx_bytes\": %" PRIu64 ", \"padding_bytes\": %" PRIu64 "}%s\n",
                   c.slot_size, c.capacity, c.used, c.peak, c.capacity - c.retired - c.peak, c.retired, c.failures,
                   c.ctx_bytes, c.padding_bytes, i + 1 < s->arena.class_count ? "," : "");
    }
    corral__pf(out, "  ],\n  \"types\": [\n");
    for (uint32_t i = 0; i < s->types.type_count; i++) {
        corral_type_stats t;
        corral_stats_type(s, i, &t);
        corral__pf(out, "    {\"name\": ");
        corral__json_str(out, t.name);
        corral__pf(out, ", \"id\": %u, \"budget\": %u, \"ctx_size\": %u, \"slot_size\": %u, \"class\": ", t.id, t.budget,
                   t.ctx_size, t.slot_size);
        if (t.slot_size) corral__pf(out, "%u", t.class_index);
        else corral__pf(out, "null");
        corral__pf(out,
                   ", \"padding\": %u, \"live\": %u, \"peak\": %u, \"started\": %" PRIu64 ", \"finished\": %" PRIu64
                   ", \"stopped\": %" PRIu64 ", \"failed\": %" PRIu64 ", \"steps\": %" PRIu64 ", \"steps_timed\": %" PRIu64 ", \"step_ns\": %" PRIu64
                   ", \"step_ns_max\": %" PRIu64 ", \"ended\": {",
                   t.padding, t.live, t.peak, t.started, t.finished, t.stopped, t.failed, t.steps, t.steps_timed, t.step_ns,
                   t.step_ns_max);
        for (int r = CORRAL_END_FINISHED; r < CORRAL_END_COUNT; r++) { /* by reason, its words' spaces as _ */
            char key[32];
            snprintf(key, sizeof key, "%s", corral_end_reason_str((corral_end_reason)r));
            for (char *c = key; *c; c++) if (*c == ' ') *c = '_';
            corral__pf(out, "%s\"%s\": %" PRIu64, r > CORRAL_END_FINISHED ? ", " : "", key, t.ended[r]);
        }
        corral__pf(out, "}}%s\n", i + 1 < s->types.type_count ? "," : "");
    }
    corral__pf(out, "  ],\n  \"domains\": [");
    for (uint32_t d = 0; d < corral__domains_of(s)->count; d++) {
        corral__pf(out, "%s{\"time\": %.9g, \"scale\": %.9g, \"paused\": %s, \"parent\": ", d ? ", " : "",
                   corral__domains_of(s)->d[d].time, (double)corral__domains_of(s)->d[d].scale, corral__domains_of(s)->d[d].paused ? "true" : "false");
        if (corral__domains_of(s)->d[d].parent) corral__pf(out, "%u}", corral__domains_of(s)->d[d].parent - 1u);
        else corral__pf(out, "null}");
    }
    corral__pf(out, "],\n  \"coroutines\": [");
    uint32_t cur = 0, listed = 0;
    corral_co_info in;
    while (corral_next_co(s, &cur, &in)) {
        char what[160];
        corral__wait_text(s, corral__co_of_global(s, cur - 1), &in, what, sizeof what);
        corral__pf(out, "%s\n    {\"handle\": \"0x%06x:%u\", \"type\": ", listed++ ? "," : "", in.handle.index,
                   in.handle.gen);
        corral__json_str(out, in.type_name);
        corral__pf(out, ", \"state\": \"%s\", \"file\": ", corral_co_state_str(in.state));
        corral__json_str(out, in.file);
        corral__pf(out, ", \"line\": %u, \"waits\": ", in.line);
        corral__json_str(out, what);
        corral__pf(out, ", \"left\": %.9g, \"domain\": %u, \"parent\": ", in.left, in.domain);
        if (in.parent.gen) corral__pf(out, "\"0x%06x:%u\"", in.parent.index, in.parent.gen);
        else corral__pf(out, "null");
        corral__pf(out, ", \"fields\": {");
        uint32_t nf = 0;
        const corral_field *f = in.type->fields ? in.type->fields(&nf) : NULL;
        for (uint32_t k = 0; k < nf; k++) { /* each as corral_print_co prints it */
            char value[96];
            corral_field_text(s, &f[k], (const unsigned char *)in.ctx + f[k].offset, value, sizeof value);
            corral__pf(out, "%s", k ? ", " : "");
            corral__json_str(out, f[k].name);
            corral__pf(out, ": ");
            corral__json_str(out, value);
        }
        corral__pf(out, "}}");
    }
    corral__pf(out, "%s],\n  \"history\": [\n", listed ? "\n  " : "");
    for (uint32_t k = 0; k < s->prof.hist_count; k++) {
        const corral_frame_sample *f = corral__hist_at(s, k);
        corral__pf(out,
                   "    {\"frame\": %" PRIu64 ", \"time\": %.9g, \"dt\": %.9g, \"live\": %u, \"steps\": %u, \"slot_bytes\": %" PRIu64
                   ", \"tick_ns\": %" PRIu64 ", \"class_used\": [",
                   f->frame, f->time, (double)f->dt, f->live, f->steps, f->slot_bytes, f->tick_ns);
        for (uint32_t i = 0; i < s->arena.class_count; i++) corral__pf(out, "%s%u", i ? ", " : "", f->class_used[i]);
        corral__pf(out, "]}%s\n", k + 1 < s->prof.hist_count ? "," : "");
    }
    corral__pf(out, "  ]\n}\n");
}

/* ---------------------------------------------------------------- Chrome trace */

static void corral__trace_json(const corral_sched *s, corral__out *out)
{
    if (!corral__stats_ok(out->call, s, corral__out_target(out))) return;
    const corral__type_entry *T = corral__types(s);
    /* timestamps: the desc clock when timing is on (ns from the first event),
       else game time (unscaled seconds) */
    bool clocked = s->prof.timing != 0;
    uint64_t base = UINT64_MAX;
    if (clocked) {
        for (uint32_t k = 0; k < s->prof.hist_count; k++) {
            uint64_t t = corral__hist_at(s, k)->tick_start_ns;
            if (t && t < base) base = t;
        }
        for (uint32_t k = 0; k < s->prof.trace_count; k++) {
            uint64_t t = corral__trace_at(s, k)->t0;
            if (t < base) base = t;
        }
    }
    if (base == UINT64_MAX) base = 0;
    corral__pf(out, "{\"displayTimeUnit\": \"ms\", \"otherData\": {\"generator\": \"corral\", \"clock\": \"%s\"},\n",
               clocked ? "desc.clock" : "game time");
    corral__pf(out, "\"traceEvents\": [\n");
    corral__pf(out, "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 0, \"args\": {\"name\": \"corral\"}},\n");
    corral__pf(out, "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 1, \"args\": {\"name\": \"frames\"}},\n");
    corral__pf(out, "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 2, \"args\": {\"name\": \"steps\"}},\n");
    corral__pf(out, "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 3, \"args\": {\"name\": \"waiting now\"}}");
    double last_ts = 0.0; /* the end of the last event: where the waits are shown */
    for (uint32_t k = 0; k < s->prof.hist_count; k++) {
        const corral_frame_sample *f = corral__hist_at(s, k);
        double ts = clocked && f->tick_start_ns ? (double)(f->tick_start_ns - base) / 1000.0 : f->time * 1e6;
        double dur = clocked && f->tick_start_ns ? (double)f->tick_ns / 1000.0 : (double)f->dt * 1e6;
        if (ts + dur > last_ts) last_ts = ts + dur;
        corral__pf(out,
                   ",\n{\"name\": \"frame %" PRIu64 "\", \"cat\": \"corral\", \"ph\": \"X\", \"pid\": 1, \"tid\": 1, "
                   "\"ts\": %.3f, \"dur\": %.3f, \"args\": {\"live\": %u, \"steps\": %u, \"slot_bytes\": %" PRIu64 "}}",
                   f->frame, ts, dur, f->live, f->steps, f->slot_bytes);
        corral__pf(out, ",\n{\"name\": \"arena bytes\", \"ph\": \"C\", \"pid\": 1, \"ts\": %.3f, \"args\": {", ts);
        for (uint32_t i = 0; i < s->arena.class_count; i++)
            corral__pf(out, "%s\"%s\": %" PRIu64, i ? ", " : "", s->arena.classes[i].name,
                       (uint64_t)f->class_used[i] * s->arena.classes[i].slot_size);
        corral__pf(out, "}}");
        corral__pf(out, ",\n{\"name\": \"live coroutines\", \"ph\": \"C\", \"pid\": 1, \"ts\": %.3f, \"args\": {", ts);
        for (uint32_t t = 0; t < s->types.type_count && t < CORRAL_HISTORY_TYPES; t++) {
            corral__pf(out, "%s", t ? ", " : "");
            corral__json_str(out, T[t].vt->name);
            corral__pf(out, ": %u", f->type_live[t]);
        }
        corral__pf(out, "}}");
    }
    for (uint32_t k = 0; k < s->prof.trace_count; k++) {
        const corral__trace_ev *e = corral__trace_at(s, k);
        if ((double)(e->t0 - base) / 1000.0 + (double)e->dur_ns / 1000.0 > last_ts)
            last_ts = (double)(e->t0 - base) / 1000.0 + (double)e->dur_ns / 1000.0;
        corral__pf(out, ",\n{\"name\": ");
        corral__json_str(out, e->type < s->types.type_count ? T[e->type].vt->name : "?");
        corral__pf(out,
                   ", \"cat\": \"step\", \"ph\": \"X\", \"pid\": 1, \"tid\": 2, \"ts\": %.3f, \"dur\": %.3f, "
                   "\"args\": {\"handle\": \"0x%06x:%u\", \"at\": \"",
                   (double)(e->t0 - base) / 1000.0, (double)e->dur_ns / 1000.0, e->index, e->gen);
        const char *file = e->type < s->types.type_count ? T[e->type].vt->file : NULL;
        corral__pf(out, "%s:%u\"}}", corral__base_name(file), e->line);
    }
    /* where every live coroutine waits now, as corral_print_chain prints it:
       one instant event per coroutine, at the end of the trace */
    uint32_t cur = 0;
    corral_co_info in;
    while (corral_next_co(s, &cur, &in)) {
        char what[160];
        corral__wait_text(s, corral__co_of_global(s, cur - 1), &in, what, sizeof what);
        corral__pf(out, ",\n{\"name\": ");
        corral__json_str(out, in.type_name);
        corral__pf(out, ", \"cat\": \"waiting\", \"ph\": \"i\", \"s\": \"t\", \"pid\": 1, \"tid\": 3, \"ts\": %.3f, "
                     "\"args\": {\"handle\": \"0x%06x:%u\", \"at\": \"%s:%u\", \"waits\": ",
                   last_ts, in.handle.index, in.handle.gen, corral__base_name(in.file), in.line);
        corral__json_str(out, what);
        if (in.parent.gen) corral__pf(out, ", \"caller\": \"0x%06x:%u\"", in.parent.index, in.parent.gen);
        corral__pf(out, "}}");
    }
    corral__pf(out, "\n]}\n");
}

/* ---------------------------------------------------------------- SVG */

static void corral__history_svg(const corral_sched *s, corral__out *out)
{
    if (!corral__stats_ok(out->call, s, corral__out_target(out))) return;
    static const char *const colors[8] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
                                          "#59a14f", "#edc948", "#b07aa1", "#ff9da7"};
    const double W = 760, H = 260, L = 70, T = 30, R = 180, B = 40;
    uint64_t ymax = 1;
    bool used[CORRAL_MAX_CLASSES] = {false};
    for (uint32_t k = 0; k < s->prof.hist_count; k++) {
        const corral_frame_sample *f = corral__hist_at(s, k);
        for (uint32_t i = 0; i < s->arena.class_count; i++) {
            uint64_t b = (uint64_t)f->class_used[i] * s->arena.classes[i].slot_size;
            if (b > ymax) ymax = b;
            if (b) used[i] = true;
        }
    }
    uint64_t f0 = s->prof.hist_count ? corral__hist_at(s, 0)->frame : 0;
    uint64_t f1 = s->prof.hist_count ? corral__hist_at(s, s->prof.hist_count - 1)->frame : 0;
    double span = f1 > f0 ? (double)(f1 - f0) : 1.0;
    corral__pf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                 "font-family=\"sans-serif\" font-size=\"12\">\n", L + W + R, T + H + B);
    corral__pf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    corral__pf(out, "<text x=\"%.0f\" y=\"18\" font-size=\"14\">corral: arena bytes in use per size class</text>\n", L);
    corral__pf(out, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", L, T + H, L + W, T + H);
    corral__pf(out, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", L, T, L, T + H);
    for (int g = 0; g <= 4; g++) {
        double y = T + H - H * g / 4.0;
        corral__pf(out, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, y, L + W, y);
        corral__pf(out, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%" PRIu64 " B</text>\n", L - 6, y + 4,
                   ymax * (uint64_t)g / 4u);
    }
    corral__pf(out, "<text x=\"%.0f\" y=\"%.0f\">frame %" PRIu64 "</text>\n", L, T + H + 18, f0);
    corral__pf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">frame %" PRIu64 "</text>\n", L + W, T + H + 18, f1);
    uint32_t legend = 0;
    for (uint32_t i = 0; i < s->arena.class_count; i++) {
        if (!used[i]) continue;
        const char *c = colors[i % 8];
        corral__pf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", c);
        for (uint32_t k = 0; k < s->prof.hist_count; k++) {
            const corral_frame_sample *f = corral__hist_at(s, k);
            double x = L + W * (double)(f->frame - f0) / span;
            double y = T + H - H * (double)((uint64_t)f->class_used[i] * s->arena.classes[i].slot_size) / (double)ymax;
            corral__pf(out, "%.1f,%.1f ", x, y);
        }
        corral__pf(out, "\"/>\n");
        double ly = T + 10 + 18.0 * legend++;
        corral__pf(out, "<rect x=\"%.0f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>\n", L + W + 14, ly - 10, c);
        corral__pf(out, "<text x=\"%.0f\" y=\"%.1f\">%s (peak %u of %u)</text>\n", L + W + 32, ly, s->arena.classes[i].name,
                   s->arena.classes[i].peak, s->arena.classes[i].capacity);
    }
    corral__pf(out, "</svg>\n");
}

/* ---------------------------------------------------------------- budgets */

static uint32_t corral__with_headroom(uint32_t peak, float headroom)
{
    if (peak == 0) return 0;
    double v = (double)peak * (1.0 + (double)headroom) - 1e-9; /* ceil, without libm */
    if (v >= 4294967295.0) return UINT32_MAX;
    uint32_t u = (uint32_t)v;
    if ((double)u < v) u++;
    return u < peak ? peak : u;
}

/* a pool never used gets 1: 0 would mean "default" */
static uint32_t corral__pool_size(uint32_t peak, float headroom)
{
    return peak ? corral__with_headroom(peak, headroom) : 1u;
}

/* The rule of docs/API.md, "Budgets: the desc to ship": every field of
   corral_sched_desc is sized from the profile, carried over as the
   profiled scheduler has it, or (what the scheduler cannot hand on: the
   caller's memory and functions) left zero and named by the emitted text. */
bool corral_budget_desc(const corral_sched *s, float headroom, corral_sched_desc *out)
{
    if (!corral__stats_ok(__func__, s, out)) return false;
    if (!(headroom >= 0.0f)) headroom = 0.0f;
    memset(out, 0, sizeof *out);
    /* sized: peak x (1 + headroom) */
    for (uint32_t i = 0; i < s->arena.class_count; i++) {
        out->classes[i].slot_size = s->arena.classes[i].slot_size;
        out->classes[i].capacity = corral__with_headroom(s->arena.classes[i].peak, headroom);
    }
    out->max_wait_nodes = corral__pool_size(s->nodes.wait_peak, headroom);
    out->max_sleepers = corral__pool_size(s->timers.sleepers_peak, headroom);
    out->max_group_nodes = corral__pool_size(s->nodes.group_peak, headroom);
    out->max_side_records = corral__pool_size(s->sides.peak, headroom);
    out->max_signals = corral__pool_size(s->pools[CORRAL__POOL_SIGNAL].peak, headroom);
    out->max_futures = corral__pool_size(s->pools[CORRAL__POOL_FUTURE].peak, headroom);
    out->max_channels = corral__pool_size(s->pools[CORRAL__POOL_CHANNEL].peak, headroom);
    /* semaphores and wait groups share one pool: its size in the first,
       the 1 the second needs to mean "one" rather than "default" */
    const uint32_t counters = corral__pool_size(s->pools[CORRAL__POOL_COUNTER].peak, headroom);
    out->max_semaphores = counters > 1 ? counters - 1 : 1;
    out->max_waitgroups = 1;
    out->max_types = corral__pool_size(s->types.type_count, headroom);
    /* carried: what the profiled scheduler was created with */
    out->order = (corral_order)s->run.order;
    out->fixed_dt = s->now.fixed_dt;
    out->max_fixed_steps = s->now.max_fixed_steps;
    out->max_posts = s->parts.state[CORRAL__STATE_POSTS - 1] ? corral__postq_of(s)->mask + 1 : 0;
    out->domains = corral__domains_of(s)->count;
    out->custom_phases = s->run.phases - CORRAL__PH_COUNT;
    out->channel_bytes = corral__chans_of(s)->channel_bytes; /* a channel's default capacity is channel_bytes / size */
    out->kept_snapshots = corral__kept_of(s) ? corral__kept_of(s)->desc_snapshots : 0u;
    out->kept_bytes = corral__kept_of(s) ? corral__kept_of(s)->desc_bytes : 0u;
    out->wait_text = s->nodes.text_off != 0;
    out->validation = s->validation_given;
    out->timing = s->prof.timing != 0;
    out->timing_sample = s->prof.sample_mask + 1u;
    out->history_frames = s->prof.hist_cap;
    out->trace_steps = s->prof.trace_cap;
    return true;
}

/* a float as a C literal that reads back the same: 0.0199999996f, 1.0f */
static const char *corral__float_lit(char *buf, size_t cap, float v)
{
    int n = snprintf(buf, cap, "%.9g", (double)v);
    if (n > 0 && (size_t)n + 3 < cap && !strpbrk(buf, ".eEn")) memcpy(buf + n, ".0", 3);
    size_t len = strlen(buf);
    if (len + 1 < cap) memcpy(buf + len, "f", 2);
    return buf;
}

static const char *corral__validation_str(corral_validation v)
{
    switch (v) {
    case CORRAL_VALIDATION_OFF: return "CORRAL_VALIDATION_OFF";
    case CORRAL_VALIDATION_REPORT: return "CORRAL_VALIDATION_REPORT";
    case CORRAL_VALIDATION_FATAL: return "CORRAL_VALIDATION_FATAL";
    case CORRAL_VALIDATION_DEFAULT:
    case CORRAL_VALIDATION_COUNT: break;
    }
    return "CORRAL_VALIDATION_DEFAULT";
}

/* The fields the emitted text sets, in the order corral_sched_desc
   declares them (C++20 takes designated initializers only in that
   order), each with how it is written; a sized one names its peak */
enum { CORRAL__EF_U32, CORRAL__EF_BOOL, CORRAL__EF_ORDER, CORRAL__EF_FLOAT, CORRAL__EF_VALIDATION };
enum { CORRAL__PEAK_NONE, CORRAL__PEAK_TYPES, CORRAL__PEAK_WAITS, CORRAL__PEAK_GROUPS, CORRAL__PEAK_SIDES,
       CORRAL__PEAK_SIGNALS, CORRAL__PEAK_FUTURES, CORRAL__PEAK_CHANNELS, CORRAL__PEAK_COUNTERS, CORRAL__PEAK_SLEEPERS };
static const struct { const char *name; uint16_t off; uint8_t kind, peak; } corral__desc_fields[] = {
#define CORRAL__F(f, kind, peak) {#f, (uint16_t)offsetof(corral_sched_desc, f), CORRAL__EF_##kind, CORRAL__PEAK_##peak}
    CORRAL__F(max_types, U32, TYPES),         CORRAL__F(order, ORDER, NONE),
    CORRAL__F(fixed_dt, FLOAT, NONE),         CORRAL__F(max_fixed_steps, U32, NONE),
    CORRAL__F(max_wait_nodes, U32, WAITS),    CORRAL__F(max_sleepers, U32, SLEEPERS),
    CORRAL__F(max_signals, U32, SIGNALS),
    CORRAL__F(max_futures, U32, FUTURES),     CORRAL__F(max_posts, U32, NONE),
    CORRAL__F(max_group_nodes, U32, GROUPS),  CORRAL__F(domains, U32, NONE),
    CORRAL__F(custom_phases, U32, NONE),      CORRAL__F(max_channels, U32, CHANNELS),
    CORRAL__F(channel_bytes, U32, NONE),      CORRAL__F(max_semaphores, U32, COUNTERS),
    CORRAL__F(max_waitgroups, U32, NONE),     CORRAL__F(max_side_records, U32, SIDES),
    CORRAL__F(kept_snapshots, U32, NONE),     CORRAL__F(kept_bytes, U32, NONE),
    CORRAL__F(wait_text, BOOL, NONE),         CORRAL__F(validation, VALIDATION, NONE),
    CORRAL__F(timing, BOOL, NONE),            CORRAL__F(timing_sample, U32, NONE),
    CORRAL__F(history_frames, U32, NONE),     CORRAL__F(trace_steps, U32, NONE),
#undef CORRAL__F
};

/* One past the highest slot of class c ever handed out, 0 if none: a
   slot is taken, retired, or free with a generation past the 1 every
   slot starts with (a free raises it; so do a load and a restore for
   slots their games used). A save of this scheduler's game names no
   slot at or above it. */
static uint32_t corral__slots_touched(const corral_sched *s, const corral__class *c)
{
    for (uint32_t k = c->capacity; k-- > 0;) {
        const corral_co *co = CORRAL__CO(s, corral__slot_off(c, k));
        if (co->state != CORRAL__FREE || co->gen > 1) return k + 1;
    }
    return 0;
}

static void corral__emit_desc(const corral_sched *s, float headroom, corral__out *out)
{
    corral_sched_desc d;
    if (!corral__stats_ok(out->call, s, corral__out_target(out)) || !corral_budget_desc(s, headroom, &d)) return;
    /* what the profiled scheduler was given of what only the caller can give again */
    const corral_hooks *h = &s->prof.hooks;
    const struct { const char *name; bool had; } mine[] = {
        {"memory", !(s->flags & CORRAL__OWNS_MEMORY)},
        {"logger", s->logger.fn != NULL},
        {"registry", s->types.registry != NULL},
        {"clock", s->now.clock.now_ns != corral__monotonic_ns},
        {"hooks", h->step_begin || h->step_end || h->alloc || h->free},
        {"field_formatter", s->prof.formatter.fn != NULL},
        {"predicates", s->types.predicates != NULL},
        {"upgrade", s->types.upgrade.fn != NULL},
    };
    corral__pf(out, "/* corral_emit_desc: pool sizes from a profile of %" PRIu64 " frames, peak x %.2f; the other\n",
               s->now.frame, 1.0 + (double)headroom);
    corral__ps(out, "   fields as the profiled scheduler had them (docs/API.md, \"Budgets: the desc to ship\").\n");
    corral__ps(out, "   Set this yourself: .memory, .memory_size, .allocator, .logger, .registry, .clock, .hooks,\n"
                    "   .field_formatter, .predicates, .upgrade, .parts (0: the default)");
    bool any = false;
    for (size_t i = 0; i < sizeof mine / sizeof mine[0]; i++) {
        if (!mine[i].had) continue;
        corral__pf(out, "%s%s", any ? ", " : ";\n   the profiled scheduler had ", mine[i].name);
        any = true;
    }
    corral__ps(out, ".\n   With a .registry, its budgets are added to these capacities.\n"
                    "   .default_capacity is not used: the classes are given. Semaphores and wait groups\n"
                    "   share one pool; a channel of n-byte values holds channel_bytes / n of them. */\n");
    corral__pf(out, "static const corral_sched_desc corral_shipped_desc = {\n    .classes = {\n");
    for (uint32_t i = 0; i < s->arena.class_count; i++) {
        const corral__class *c = &s->arena.classes[i];
        const uint32_t touched = corral__slots_touched(s, c);
        corral__pf(out, "        { .slot_size = %u, .capacity = %u }, /* peak %u of %u, %" PRIu64 " failures%s",
                   d.classes[i].slot_size, d.classes[i].capacity, c->peak, c->capacity, c->failures,
                   c->peak ? "" : ", never used in this profile");
        if (touched > d.classes[i].capacity) /* API.md, "Save games" */
            corral__pf(out, "; saves made under the profiled desc name slots up to %u here: to load them, give "
                            "capacity >= %u", touched - 1, touched);
        corral__ps(out, " */\n");
    }
    corral__ps(out, "    },\n");
    const corral__pool *P = s->pools;
    const uint32_t peaks[] = {0, s->types.type_count, s->nodes.wait_peak, s->nodes.group_peak, s->sides.peak,
                              P[CORRAL__POOL_SIGNAL].peak, P[CORRAL__POOL_FUTURE].peak, P[CORRAL__POOL_CHANNEL].peak,
                              P[CORRAL__POOL_COUNTER].peak, s->timers.sleepers_peak};
    /* and what each refused (sleepers: the sleeps that took a wait node): a
       peak that met its capacity says less than was asked */
    const uint64_t refused[] = {0, 0, s->nodes.wait_failures, s->nodes.group_failures, s->sides.failures,
                                P[CORRAL__POOL_SIGNAL].failures, P[CORRAL__POOL_FUTURE].failures,
                                P[CORRAL__POOL_CHANNEL].failures, P[CORRAL__POOL_COUNTER].failures, s->timers.spilled};
    for (size_t i = 0; i < sizeof corral__desc_fields / sizeof corral__desc_fields[0]; i++) {
        const unsigned char *at = (const unsigned char *)&d + corral__desc_fields[i].off;
        char f[40];
        corral__pf(out, "    .%s = ", corral__desc_fields[i].name);
        switch (corral__desc_fields[i].kind) {
        case CORRAL__EF_U32: {
            uint32_t v;
            memcpy(&v, at, sizeof v);
            corral__pf(out, "%u,", v);
            break;
        }
        case CORRAL__EF_BOOL: corral__ps(out, *(const bool *)(const void *)at ? "true," : "false,"); break;
        case CORRAL__EF_ORDER:
            corral__ps(out, d.order == CORRAL_ORDER_BY_TYPE ? "CORRAL_ORDER_BY_TYPE," : "CORRAL_ORDER_FIFO,");
            break;
        case CORRAL__EF_FLOAT: corral__pf(out, "%s,", corral__float_lit(f, sizeof f, d.fixed_dt)); break;
        case CORRAL__EF_VALIDATION: corral__pf(out, "%s,", corral__validation_str(d.validation)); break;
        }
        const uint8_t pk = corral__desc_fields[i].peak;
        if (pk == CORRAL__PEAK_COUNTERS)
            corral__pf(out, " /* peak %u of the shared semaphore and wait group pool, with max_waitgroups */", peaks[pk]);
        else if (pk != CORRAL__PEAK_NONE && refused[pk])
            corral__pf(out, " /* peak %u, and %" PRIu64 " %s: give it more than this */", peaks[pk], refused[pk],
                       pk == CORRAL__PEAK_SLEEPERS ? "sleeps took wait nodes" : "refused at that peak");
        else if (pk != CORRAL__PEAK_NONE)
            corral__pf(out, " /* peak %u */", peaks[pk]);
        corral__pc(out, '\n');
    }
    corral__ps(out, "};\n");
}

/* ---- the text report */

static const char *corral__bytes(char *buf, size_t n, uint64_t b)
{
    if (b < 1024) snprintf(buf, n, "%" PRIu64 " B", b);
    else if (b < 1024u * 1024u) snprintf(buf, n, "%.1f KiB", (double)b / 1024.0);
    else snprintf(buf, n, "%.2f MiB", (double)b / (1024.0 * 1024.0));
    return buf;
}

/* With desc.wait_text: where the live coroutines wait, one line per place
   (type, line, the wait as written), the first 16 places, the rest summed */
static void corral__report_waits(const corral_sched *s, corral__out *out)
{
    enum { PLACES = 16 };
    struct { const corral_type *type; uint32_t line, count; corral_co_state state; corral_wait_kind wait;
             corral_call_kind call; const char *text, *file; } at[PLACES];
    uint32_t n = 0, others = 0, cur = 0;
    corral_co_info in;
    while (corral_next_co(s, &cur, &in)) {
        uint32_t k = 0;
        while (k < n && !(at[k].type == in.type && at[k].line == in.line && at[k].wait == in.wait &&
                          at[k].call == in.call && at[k].text == in.wait_text && at[k].state == in.state))
            k++;
        if (k == n && n == PLACES) {
            others++;
            continue;
        }
        if (k == n) {
            at[n].type = in.type, at[n].line = in.line, at[n].count = 0, at[n].state = in.state;
            at[n].wait = in.wait, at[n].call = in.call, at[n].text = in.wait_text, at[n].file = in.file;
            n++;
        }
        at[k].count++;
    }
    corral__pf(out, "\n  %-20s %7s  %s\n", "waiting", "count", "where, on what");
    for (uint32_t k = 0; k < n; k++) {
        const char *file = at[k].file ? at[k].file : "?", *base = file;
        for (const char *p = file; *p; p++)
            if (*p == '/' || *p == '\\') base = p + 1;
        corral__pf(out, "  %-20s %7u  %s:%u  %s", at[k].type->name, at[k].count, base, at[k].line,
                   at[k].call == CORRAL_CALL_RACE   ? "race"
                   : at[k].call == CORRAL_CALL_SYNC ? "sync"
                   : at[k].call == CORRAL_CALL_ONE  ? "call"
                   : at[k].wait != CORRAL_WAIT_NONE ? corral_wait_kind_str(at[k].wait)
                                                  : corral_co_state_str(at[k].state));
        corral__pf(out, "%s%s\n", at[k].text && *at[k].text ? " " : "", at[k].text ? at[k].text : "");
    }
    if (others) corral__pf(out, "  %-20s %7u  (in other places)\n", "...", others);
}

/* the report's pool table: each pool's used, peak and capacity (three
   uint32_t in a row of corral_pool_stats) and its failures */
static const struct { const char *name, *field; uint16_t counts, failures; } corral__pool_rows[] = {
#define CORRAL__P(name, field, n, f) {name, field, (uint16_t)offsetof(corral_pool_stats, n), (uint16_t)offsetof(corral_pool_stats, f)}
    CORRAL__P("wait nodes", "max_wait_nodes", wait_nodes, wait_failures),
    CORRAL__P("sleepers", "max_sleepers", sleepers, sleepers_spilled),
    CORRAL__P("group nodes", "max_group_nodes", group_nodes, group_failures),
    CORRAL__P("side records", "max_side_records", side_records, side_failures),
    CORRAL__P("signals", "max_signals", signals, signal_failures),
    CORRAL__P("futures", "max_futures", futures, future_failures),
    CORRAL__P("channels", "max_channels", channels, channel_failures),
    CORRAL__P("semaphores, waitgroups", "max_semaphores", counters, counter_failures),
#undef CORRAL__P
};
#define CORRAL__ROW(n, cap) \
    CORRAL__STATIC_ASSERT(offsetof(corral_pool_stats, cap) == offsetof(corral_pool_stats, n) + 8, "used, peak, capacity in a row")
CORRAL__ROW(wait_nodes, wait_nodes_capacity);
CORRAL__ROW(sleepers, sleepers_capacity);
CORRAL__ROW(group_nodes, group_nodes_capacity);
CORRAL__ROW(side_records, side_records_capacity);
CORRAL__ROW(signals, signals_capacity);
CORRAL__ROW(futures, futures_capacity);
CORRAL__ROW(channels, channels_capacity);
CORRAL__ROW(counters, counters_capacity);
#undef CORRAL__ROW

static void corral__report_text(const corral_sched *s, corral__out *out)
{
    if (!corral__stats_ok(out->call, s, corral__out_target(out))) return;
    char a[32], b[32], c[32], d[32];
    uint64_t slot_bytes, ctx_bytes;
    const uint32_t live = corral__live_read(s, &slot_bytes, &ctx_bytes);
    corral__pf(out, "corral arena: %s block, %s of slabs, %u live (peak %u), frame %" PRIu64 "\n",
               corral__bytes(a, sizeof a, s->total_bytes), corral__bytes(b, sizeof b, s->arena.slab_bytes), live,
               s->arena.live_peak, s->now.frame);
    corral__pf(out, "  in slots  %12s   peak %12s\n", corral__bytes(a, sizeof a, slot_bytes),
               corral__bytes(b, sizeof b, s->arena.slot_bytes_peak));
    corral__pf(out, "  contexts  %12s   peak %12s   (padding now %s, at peak %s)\n",
               corral__bytes(a, sizeof a, ctx_bytes), corral__bytes(b, sizeof b, s->arena.ctx_bytes_peak),
               corral__bytes(c, sizeof c, slot_bytes - ctx_bytes),
               corral__bytes(d, sizeof d, s->arena.slot_bytes_peak - s->arena.ctx_bytes_peak));
    if (s->prof.timing)
        corral__pf(out, "  ticks     last %" PRIu64 " ns, max %" PRIu64 " ns, mean %" PRIu64 " ns\n", s->prof.tick_ns_last,
                   s->prof.tick_ns_max, s->now.frame ? s->prof.tick_ns_total / s->now.frame : 0);
    corral__pf(out, "\n  %-5s %6s %9s %7s %7s %9s %7s %9s %8s\n", "class", "slot B", "capacity", "used", "peak",
               "headroom", "peak %", "failures", "retired");
    for (uint32_t i = 0; i < s->arena.class_count; i++) {
        const corral__class *k = &s->arena.classes[i];
        uint32_t usable = k->capacity - k->retired;
        uint32_t pct = usable ? (uint32_t)((uint64_t)k->peak * 100u / usable) : 0;
        const char *flag = k->failures ? "  <- FULL: starts were refused"
                           : (usable && pct >= 90) ? "  <- over 90% at peak"
                                                   : "";
        corral__pf(out, "  %-5u %6u %9u %7u %7u %9u %6u%% %9" PRIu64 " %8u%s\n", i, k->slot_size, k->capacity,
                   k->used + corral__uncounted_of_class(s, i),
                   k->peak, usable - k->peak, pct, k->failures, k->retired, flag);
    }
    corral_pool_stats p = {0};
    corral_stats_pools(s, &p);
    corral__pf(out, "\n  %-22s %7s %7s %9s %9s\n", "pool", "used", "peak", "capacity", "failures");
    for (size_t i = 0; i < sizeof corral__pool_rows / sizeof corral__pool_rows[0]; i++) {
        uint32_t n[3]; /* used, peak, capacity */
        uint64_t failures;
        memcpy(n, (const unsigned char *)&p + corral__pool_rows[i].counts, sizeof n);
        memcpy(&failures, (const unsigned char *)&p + corral__pool_rows[i].failures, sizeof failures);
        corral__pf(out, "  %-22s %7u %7u %9u %9" PRIu64, corral__pool_rows[i].name, n[0], n[1], n[2], failures);
        if (failures) /* the sleepers' failures are sleeps that took a wait node instead */
            corral__pf(out, "  <- %s (raise desc.%s)",
                       corral__pool_rows[i].counts == offsetof(corral_pool_stats, sleepers) ? "spilled into wait nodes" : "FULL: refused",
                       corral__pool_rows[i].field);
        corral__pc(out, '\n');
    }
    corral__pf(out, "  %-22s %7s %7s %9u %9" PRIu64 "\n", "posts", "-", "-", p.posts_capacity, p.posts_full);
    corral_generator_stats g = {0};
    corral_stats_generators(s, &g);
    if (g.live) /* held ones nobody pulls stay here */
        corral__pf(out, "  generators %u alive: %u owned by coroutines, %u by the game\n", g.live, g.owned, g.game);
    /* where the block goes, to the byte: the parts that grow with the slots
       also per slot */
    corral__block_part parts[CORRAL__BLOCK_PARTS];
    corral__block_parts(s, parts);
    const uint32_t slots = s->arena.total_slots;
    uint64_t placed = 0, per_slot = 0;
    corral__pf(out, "\n  %-16s %12s %11s %9s\n", "block part", "bytes", "", "per slot");
    for (uint32_t i = 0; i < CORRAL__BLOCK_PARTS; i++) {
        placed += parts[i].bytes;
        if (!parts[i].bytes) continue;
        corral__pf(out, "  %-16s %12" PRIu64 " %11s", parts[i].name, parts[i].bytes,
                   corral__bytes(a, sizeof a, parts[i].bytes));
        if (parts[i].per_slot && slots) {
            per_slot += parts[i].bytes;
            corral__pf(out, " %9.1f", (double)parts[i].bytes / slots);
        }
        corral__pc(out, '\n');
    }
    corral__pf(out, "  %-16s %12" PRIu64 " %11s\n", "alignment", s->total_bytes - placed,
               corral__bytes(a, sizeof a, s->total_bytes - placed));
    if (slots)
        corral__pf(out, "  (%u slots: %.1f B each with their share of what grows with them)\n", slots,
                   (double)per_slot / slots);
    /* started = live + finished + stopped + other: every end in one column */
    corral__pf(out, "\n  %-20s %4s %6s %6s %5s %7s %7s %9s %9s %9s %7s %7s", "type", "id", "ctx B", "slot B", "class",
               "live", "peak", "started", "finished", "stopped", "other", "failed");
    if (s->prof.timing) corral__pf(out, " %9s %9s %9s", "steps", "body ns", "body max");
    corral__pc(out, '\n');
    bool others = false;
    for (uint32_t i = 0; i < s->types.type_count; i++) {
        corral_type_stats t = {0};
        corral_stats_type(s, i, &t);
        char cls[8];
        if (t.class_index == CORRAL__NO_CLASS) snprintf(cls, sizeof cls, "none");
        else snprintf(cls, sizeof cls, "%u", t.class_index);
        uint64_t other = t.started - t.live - t.finished - t.stopped;
        others |= other != 0;
        corral__pf(out, "  %-20s %4u %6u %6u %5s %7u %7u %9" PRIu64 " %9" PRIu64 " %9" PRIu64 " %7" PRIu64 " %7" PRIu64,
                   t.name, t.id, t.ctx_size, t.slot_size, cls, t.live, t.peak, t.started, t.finished, t.stopped, other,
                   t.failed);
        if (s->prof.timing)
            corral__pf(out, " %9" PRIu64 " %9" PRIu64 " %9" PRIu64, t.steps, t.steps_timed ? t.step_ns / t.steps_timed : 0,
                       t.step_ns_max);
        corral__ps(out, t.failed ? "  <- starts refused\n" : "\n");
    }
    if (s->prof.timing)
        corral__ps(out, "  (body ns: the mean time inside a type's step, its own work included; max the longest)\n");
    if (others) { /* what "other" was made of */
        corral__ps(out, "\n  other ends\n");
        for (uint32_t i = 0; i < s->types.type_count; i++) {
            corral_type_stats t = {0};
            corral_stats_type(s, i, &t);
            bool any = false;
            for (int r = CORRAL_END_STOPPED + 1; r < CORRAL_END_COUNT; r++) {
                if (!t.ended[r]) continue;
                if (!any) corral__pf(out, "  %-20s", t.name);
                corral__pf(out, "%s %s %" PRIu64, any ? "," : "", corral_end_reason_str((corral_end_reason)r), t.ended[r]);
                any = true;
            }
            if (any) corral__pc(out, '\n');
        }
    }
    if (s->nodes.text_off && corral__live_read(s, NULL, NULL)) corral__report_waits(s, out);
}

/* ---------------------------------------------------------------- the two forms of every output */

bool corral_print_co(const corral_sched *s, corral_handle h, FILE *out)
{
    return corral__print_co(s, h, &(corral__out){out, NULL, __func__});
}
bool corral_print_co_to(const corral_sched *s, corral_handle h, corral_writer *w)
{
    corral__out o = corral__out_to(w, __func__);
    return corral__print_co(s, h, &o);
}
void corral_dump(const corral_sched *s, FILE *out) { corral__dump(s, &(corral__out){out, NULL, __func__}); }
void corral_dump_to(const corral_sched *s, corral_writer *w)
{
    corral__out o = corral__out_to(w, __func__);
    corral__dump(s, &o);
}
bool corral_print_chain(const corral_sched *s, corral_handle h, FILE *out)
{
    return corral__print_chain(s, h, &(corral__out){out, NULL, __func__});
}
bool corral_print_chain_to(const corral_sched *s, corral_handle h, corral_writer *w)
{
    corral__out o = corral__out_to(w, __func__);
    return corral__print_chain(s, h, &o);
}
void corral_report_json(const corral_sched *s, FILE *out) { corral__report_json(s, &(corral__out){out, NULL, __func__}); }
void corral_report_json_to(const corral_sched *s, corral_writer *w)
{
    corral__out o = corral__out_to(w, __func__);
    corral__report_json(s, &o);
}
void corral_trace_json(const corral_sched *s, FILE *out) { corral__trace_json(s, &(corral__out){out, NULL, __func__}); }
void corral_trace_json_to(const corral_sched *s, corral_writer *w)
{
    corral__out o = corral__out_to(w, __func__);
    corral__trace_json(s, &o);
}
void corral_history_svg(const corral_sched *s, FILE *out) { corral__history_svg(s, &(corral__out){out, NULL, __func__}); }
void corral_history_svg_to(const corral_sched *s, corral_writer *w)
{
    corral__out o = corral__out_to(w, __func__);
    corral__history_svg(s, &o);
}
void corral_emit_desc(const corral_sched *s, float headroom, FILE *out)
{
    corral__emit_desc(s, headroom, &(corral__out){out, NULL, __func__});
}
void corral_emit_desc_to(const corral_sched *s, float headroom, corral_writer *w)
{
    corral__out o = corral__out_to(w, __func__);
    corral__emit_desc(s, headroom, &o);
}
void corral_report_text(const corral_sched *s, FILE *out) { corral__report_text(s, &(corral__out){out, NULL, __func__}); }
void corral_report_text_to(const corral_sched *s, corral_writer *w)
{
    corral__out o = corral__out_to(w, __func__);
    corral__report_text(s, &o);
}
