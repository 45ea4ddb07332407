/* test_arena.c -- one block, size classes, budgets, zero allocation. */
#include "common.h"
#include "corral_internal.h"

#include <stdalign.h>

static corral_sched_desc counted_desc(alloc_counter *c)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.allocator.alloc = counting_alloc;
    d.allocator.free = counting_free;
    d.allocator.user_data = c;
    return d;
}

Test(arena, zeroed_desc_is_valid_and_gives_the_default_classes)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    corral_sched *s = corral_sched_create(&d);
    cr_assert_not_null(s);
    cr_assert_eq(corral_class_count(s), 9);
    corral_class_stats c;
    cr_assert(corral_stats_class(s, 0, &c));
    cr_assert_eq(c.slot_size, 24);
    cr_assert_eq(c.capacity, 256);
    cr_assert(corral_stats_class(s, 1, &c));
    cr_assert_eq(c.slot_size, 32);
    cr_assert(corral_stats_class(s, 8, &c));
    cr_assert_eq(c.slot_size, 1024);
    corral_sched_destroy(s);
}

Test(arena, no_allocator_call_after_create_across_a_million_start_stop_cycles)
{
    alloc_counter ac = {0};
    corral_sched_desc d = counted_desc(&ac);
    d.classes[0].slot_size = 64;
    d.classes[0].capacity = 64;
    corral_sched *s = corral_sched_create(&d);
    cr_assert_not_null(s);
    cr_assert_eq(ac.allocs, 1, "create makes exactly one allocation");
    cr_assert_eq(ac.bytes, corral_sched_memory_size(&d));
    for (int i = 0; i < 1000000; i++) {
        corral_handle h = start_tracer(s, 0, 0);
        cr_assert_neq(h.gen, 0);
        if (i % 3 == 0) corral_tick(s, 0.016f);
        cr_assert(corral_stop(s, h));
    }
    for (int i = 0; i < 64; i++) cleaned_start(s, (cleaned_ctx){.id = -1});
    for (int i = 0; i < 100; i++) corral_tick(s, 0.016f);
    cr_assert_eq(ac.allocs, 1, "no allocation after create");
    cr_assert_eq(ac.frees, 0);
    corral_sched_destroy(s);
    cr_assert_eq(ac.allocs, 1);
    cr_assert_eq(ac.frees, 1, "destroy frees the one block");
}

Test(arena, caller_owned_memory_is_used_and_no_allocator_is_called)
{
    alloc_counter ac = {0};
    corral_sched_desc d = counted_desc(&ac);
    d.classes[0].slot_size = 64;
    d.classes[0].capacity = 16;
    size_t need = corral_sched_memory_size(&d);
    cr_assert_gt(need, 16 * 64);
    unsigned char *mem = malloc(need);
    d.memory = mem;
    d.memory_size = need;
    corral_sched *s = corral_sched_create(&d);
    cr_assert_not_null(s);
    cr_assert((unsigned char *)s >= mem && (unsigned char *)s < mem + need);
    corral_handle h = start_tracer(s, 1, 0);
    corral_tick(s, 0.f);
    corral_stop(s, h);
    corral_sched_destroy(s);
    cr_assert_eq(ac.allocs + ac.frees, 0);
    free(mem);
}

Test(arena, block_one_byte_short_of_memory_size_is_refused)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = 64;
    d.classes[0].capacity = 16;
    size_t need = corral_sched_memory_size(&d);
    unsigned char *mem = malloc(need);
    d.memory = mem;
    d.memory_size = need - 1;
    cr_assert_null(corral_sched_create(&d));
    cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_MEMORY_TOO_SMALL);
    char want[96]; /* the words give both sizes */
    snprintf(want, sizeof want, "%zu bytes, %zu needed", need - 1, need);
    cr_assert(strstr(corral_last_error_detail(NULL), want), "'%s'", corral_last_error_detail(NULL));
    free(mem);
}

Test(arena, unaligned_caller_memory_is_aligned_inside_the_block)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = 64;
    d.classes[0].capacity = 4;
    size_t need = corral_sched_memory_size(&d);
    unsigned char *mem = malloc(need + 1);
    d.memory = mem + 1; /* deliberately odd */
    d.memory_size = need;
    corral_sched *s = corral_sched_create(&d);
    cr_assert_not_null(s);
    cr_assert_eq((uintptr_t)s % 64, 0);
    start_tracer(s, 1, 0);
    corral_tick(s, 0.f);
    corral_sched_destroy(s);
    free(mem);
}

typedef struct big64 {
    alignas(64) unsigned char bytes[64];
} big64;
#define WIDE_FIELDS(F) \
    F(int, tag)        \
    F(big64, block)
DECLARE_COROUTINE(wide, WIDE_FIELDS)
static uintptr_t g_wide_addr;
DEFINE_COROUTINE(wide)
{
    g_wide_addr = (uintptr_t)ctx;
    ctx->block.bytes[63] = (unsigned char)ctx->tag;
    return CORRAL_YIELD;
}

Test(arena, context_with_an_alignas_64_member_is_64_byte_aligned)
{
    cr_assert_eq(wide_type.ctx_align, 64);
    cr_assert_eq(wide_type.ctx_offset, 64);
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = 48;  /* too small */
    d.classes[0].capacity = 4;
    d.classes[1].slot_size = 208; /* fits 64+128 but 208 % 64 != 0 */
    d.classes[1].capacity = 4;
    d.classes[2].slot_size = 256;
    d.classes[2].capacity = 4;
    corral_sched *s = corral_sched_create(&d);
    for (int i = 0; i < 3; i++) {
        corral_handle h = wide_start(s, (wide_ctx){.tag = i});
        cr_assert(corral_alive(s, h));
        cr_assert_eq(g_wide_addr % 64, 0, "context at %p", (void *)g_wide_addr);
        cr_assert_eq(h.index >> 24, 2, "lands in the 256-byte class");
    }
    corral_sched_destroy(s);
}

/* 8-byte contexts (one counter), and a 16-byte one that needs 16 alignment */
#define TINY_FIELDS(F) F(uint64_t, n)
DECLARE_COROUTINE(tiny, TINY_FIELDS)
DEFINE_COROUTINE(tiny)
{
    ctx->n += 1;
    return CORRAL_YIELD;
}
typedef struct al16 {
    alignas(16) uint64_t w[2];
} al16;
#define AL16_FIELDS(F) F(al16, v)
DECLARE_COROUTINE(al16co, AL16_FIELDS)
static uintptr_t g_al16_addr;
DEFINE_COROUTINE(al16co)
{
    g_al16_addr = (uintptr_t)ctx;
    ctx->v.w[1]++;
    return CORRAL_YIELD;
}

Test(arena, slot_size_for_is_the_tightest_slot_a_type_fits)
{
    cr_assert_eq(corral_slot_size_for(&tiny_type), 24, "16 + 8");
    cr_assert_eq(corral_slot_size_for(&tracer_type), 32, "16 + 12, rounded to 8");
    cr_assert_eq(corral_slot_size_for(&al16co_type), 32, "16 + 16, a multiple of 16");
    cr_assert_eq(corral_slot_size_for(&wide_type), 192, "64 + 128, a multiple of 64");
    cr_assert_eq(corral_slot_size_for(NULL), 0);
    corral_type bad = tiny_type;
    bad.ctx_align = 3;
    cr_assert_eq(corral_slot_size_for(&bad), 0);
}

Test(arena, a_24_byte_class_packs_8_byte_contexts_and_keeps_wider_alignment_out)
{
    enum { N = 1000 };
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = 24;
    d.classes[0].capacity = N;
    d.classes[1].slot_size = 40; /* holds 16 + 16, but not 16-aligned every slot */
    d.classes[1].capacity = 4;
    d.classes[2].slot_size = 48;
    d.classes[2].capacity = 4;
    corral_sched *s = corral_sched_create(&d);
    cr_assert_not_null(s);
    static corral_handle h[N];
    for (int i = 0; i < N; i++) {
        h[i] = tiny_start(s, (tiny_ctx){.n = (uint64_t)i * 1000});
        cr_assert_eq(h[i].index >> 24, 0, "an 8-byte context takes a 24-byte slot");
    }
    cr_assert_eq(tiny_start(s, (tiny_ctx){0}).gen, 0, "the class is full");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_POOL_EXHAUSTED);
    for (int t = 0; t < 5; t++) corral_tick(s, 0.016f);
    for (int i = 0; i < N; i++) {
        tiny_ctx *c = corral_context(s, h[i], &tiny_type);
        cr_assert_not_null(c);
        cr_assert_eq((uintptr_t)c % 8, 0);
        cr_assert_eq(c->n, (uint64_t)i * 1000 + 6, "its own counter: first step + 5 ticks, nothing overlapped");
    }
    for (int i = 0; i < N; i += 2) cr_assert(corral_stop(s, h[i]));
    for (int i = 0; i < N / 2; i++) cr_assert_neq(tiny_start(s, (tiny_ctx){0}).gen, 0, "freed slots are reused");
    corral_class_stats c0;
    cr_assert(corral_stats_class(s, 0, &c0));
    cr_assert_eq(c0.used, N);
    cr_assert(corral_verify(s));

    for (int i = 0; i < 3; i++) {
        corral_handle a = al16co_start(s, (al16co_ctx){{{0, 0}}});
        cr_assert_eq(a.index >> 24, 2, "a 16-aligned context skips the 40-byte class");
        cr_assert_eq(g_al16_addr % 16, 0, "context at %p", (void *)g_al16_addr);
    }
    corral_type_stats ts;
    cr_assert(corral_stats_type_of(s, &al16co_type, &ts));
    cr_assert_eq(ts.slot_size, 48);
    corral_sched_destroy(s);
}

Test(arena, a_zeroed_desc_puts_8_byte_contexts_in_its_24_byte_class)
{
    corral_sched *s = corral_sched_create(&(corral_sched_desc){0});
    cr_assert_not_null(s);
    corral_handle h = tiny_start(s, (tiny_ctx){0});
    cr_assert_eq(h.index >> 24, 0);
    corral_type_stats ts;
    cr_assert(corral_stats_type_of(s, &tiny_type, &ts));
    cr_assert_eq(ts.slot_size, 24);
    cr_assert_eq(ts.padding, 16, "the header and nothing else");
    corral_sched_destroy(s);
}

Test(arena, type_lands_in_the_smallest_class_that_fits)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = 32;
    d.classes[0].capacity = 4;
    d.classes[1].slot_size = 48;
    d.classes[1].capacity = 4;
    corral_sched *s = corral_sched_create(&d);
    corral_handle t = start_tracer(s, 1, 0);            /* 12-byte context: 16 + 12 <= 32 */
    corral_handle a = start_actor(s, 1, NULL, t, NULL); /* 32-byte context: 16 + 32 <= 48 */
    cr_assert_eq(t.index >> 24, 0);
    cr_assert_eq(a.index >> 24, 1);
    corral_handle w = wide_start(s, (wide_ctx){.tag = 1}); /* 64 + 128 bytes: no class */
    cr_assert_eq(w.gen, 0, "wide fits no class");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_NO_CLASS);
    corral_type_stats st;
    cr_assert(corral_stats_type_of(s, &wide_type, &st));
    cr_assert_eq(st.failed, 1);
    cr_assert_eq(st.slot_size, 0);
    corral_sched_destroy(s);
}

Test(arena, desc_with_bad_classes_is_refused)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = 64;
    d.classes[1].slot_size = 48; /* not ascending */
    cr_assert_null(corral_sched_create(&d));
    cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_BAD_DESC);
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = 36; /* not a multiple of 8 */
    cr_assert_null(corral_sched_create(&d));
    cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_BAD_DESC);
    cr_assert_eq(corral_sched_memory_size(&d), 0);
    d.classes[0].slot_size = 16; /* no room for a context after the header */
    cr_assert_null(corral_sched_create(&d));
    cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_BAD_DESC);
}

Test(arena, arena_over_4_gib_is_refused_before_allocating)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = 64;
    d.classes[0].capacity = 1u << 23;
    d.classes[1].slot_size = 1024;
    d.classes[1].capacity = 1u << 23; /* 8 GiB: over the 4 GiB of 32-bit offsets */
    cr_assert_null(corral_sched_create(&d));
    cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_TOO_LARGE);
}

static void *null_alloc(size_t n, void *u)
{
    (void)n;
    (void)u;
    return NULL;
}
static void never_free(void *p, void *u)
{
    (void)p;
    (void)u;
}

Test(arena, allocator_returning_null_is_reported)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.allocator.alloc = null_alloc;
    d.allocator.free = never_free;
    cr_assert_null(corral_sched_create(&d));
    cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_ALLOC_FAILED);
}

Test(arena, freed_slot_is_reused_first_lifo)
{
    corral_sched *s = small_sched(8);
    corral_handle a = start_tracer(s, 1, 0);
    corral_handle b = start_tracer(s, 2, 0);
    corral_stop(s, a);
    corral_handle c = start_tracer(s, 3, 0);
    cr_assert_eq(c.index, a.index, "the slot just freed is warm: reuse it");
    cr_assert_eq(c.gen, a.gen + 1);
    cr_assert_neq(b.index, c.index);
    corral_sched_destroy(s);
}

/* A type fills a page of its own before it takes another, so coroutines of
   one type sit together whatever order types start in. Pages are 64 slots
   in a small class and grow with it (128 at 8192 slots). */
#define LOCAL_OF(h) ((h).index & 0x00FFFFFFu)
static void check_pages_of_their_own(uint32_t capacity, uint32_t page)
{
    corral_sched *s = small_sched(capacity);
    corral_handle *t = calloc(page + 2, sizeof *t), *c = calloc(page, sizeof *c);
    for (uint32_t i = 0; i < page; i++) {
        t[i] = start_tracer(s, (int)i, 0);
        c[i] = cleaned_start(s, (cleaned_ctx){.id = -1});
        cr_assert(t[i].gen && c[i].gen);
    }
    for (uint32_t i = 0; i < page; i++) {
        cr_assert_eq(LOCAL_OF(t[i]) / page, LOCAL_OF(t[0]) / page, "tracer %u left its page", i);
        cr_assert_eq(LOCAL_OF(c[i]) / page, LOCAL_OF(c[0]) / page, "cleaned %u left its page", i);
    }
    cr_assert_neq(LOCAL_OF(t[0]) / page, LOCAL_OF(c[0]) / page);
    /* its page is full: the next tracers start a fresh page together */
    t[page] = start_tracer(s, 64, 0);
    t[page + 1] = start_tracer(s, 65, 0);
    cr_assert_eq(LOCAL_OF(t[page]) / page, LOCAL_OF(t[page + 1]) / page);
    cr_assert_neq(LOCAL_OF(t[page]) / page, LOCAL_OF(t[0]) / page);
    cr_assert_neq(LOCAL_OF(t[page]) / page, LOCAL_OF(c[0]) / page);
    cr_assert(corral_verify(s));
    free(t);
    free(c);
    corral_sched_destroy(s);
}
Test(arena, types_started_in_any_order_fill_pages_of_their_own)
{
    check_pages_of_their_own(256, 64);
    check_pages_of_their_own(8192, 128);
}

/* Pages are a preference: with no empty page left, a start takes a slot in
   any page with room; only a full class refuses. When every coroutine has
   ended, every page is empty again. */
Test(arena, a_start_takes_a_slot_in_any_page_before_it_fails)
{
    corral_sched *s = small_sched(128); /* 2 pages */
    corral_handle t = start_tracer(s, 1, 0);
    corral_handle c = cleaned_start(s, (cleaned_ctx){.id = -1});
    corral_handle h[126];
    for (int i = 0; i < 126; i++) {
        h[i] = actor_start(s, (actor_ctx){.id = i});
        cr_assert_neq(h[i].gen, 0, "start %d refused with %d slots free", i, 126 - i);
    }
    cr_assert_eq(corral_live_count(s), 128);
    cr_assert(corral_verify(s));
    corral_handle no = actor_start(s, (actor_ctx){.id = 999});
    cr_assert_eq(no.gen, 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_POOL_EXHAUSTED);
    /* free slots in both pages, in any order; then refill across them */
    cr_assert(corral_stop(s, t));
    for (int i = 0; i < 126; i += 2) cr_assert(corral_stop(s, h[i]));
    cr_assert(corral_verify(s));
    for (int i = 0; i < 126; i += 2) {
        h[i] = actor_start(s, (actor_ctx){.id = i});
        cr_assert_neq(h[i].gen, 0);
    }
    cr_assert(corral_verify(s));
    cr_assert(corral_stop(s, c));
    for (int i = 0; i < 126; i++) cr_assert(corral_stop(s, h[i]));
    cr_assert_eq(corral_live_count(s), 0);
    cr_assert(corral_verify(s));
    /* every page free, on the empty list or (the page a type fills) the
       partial one */
    const corral__class *k = &s->arena.classes[0];
    const corral__page *P = corral__pages(s, k);
    uint32_t free_pages = 0;
    for (uint32_t pi = k->empty_head; pi != CORRAL__NIL; pi = P[pi].next) free_pages += P[pi].free_count == P[pi].slots;
    for (uint32_t pi = k->partial_head; pi != CORRAL__NIL; pi = P[pi].next) free_pages += P[pi].free_count == P[pi].slots;
    cr_assert_eq(free_pages, 2);
    corral_sched_destroy(s);
}

/* registry with budgets */
#define TEST_COROUTINES(X) \
    X(tracer, 10, 3)       \
    X(cleaned, 11, 2)
CORRAL_DECLARE_REGISTRY(testreg, TEST_COROUTINES)
CORRAL_DEFINE_REGISTRY(testreg, TEST_COROUTINES);

/* a scheduler sized by the registry alone (a zeroed desc otherwise) */
static corral_sched *registry_sched(void)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.registry = &testreg_registry;
    corral_sched *s = corral_sched_create(&d);
    cr_assert_not_null(s);
    return s;
}

Test(arena, registry_budgets_size_the_classes_and_cap_each_type)
{
    corral_sched *s = registry_sched();
    /* both contexts are 12 bytes (16 + 12 = 28): class 1 (32 B) gets 3 + 2 slots */
    corral_class_stats c;
    corral_stats_class(s, 1, &c);
    cr_assert_eq(c.slot_size, 32);
    cr_assert_eq(c.capacity, 5);
    corral_stats_class(s, 0, &c);
    cr_assert_eq(c.capacity, 0, "no registry type in class 0 (24 B), no default capacity");
    for (int i = 0; i < 3; i++) cr_assert_neq(start_tracer(s, i, 0).gen, 0);
    cr_assert_eq(start_tracer(s, 9, 0).gen, 0, "budget of 3 reached");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_TYPE_BUDGET);
    for (int i = 0; i < 2; i++) cr_assert_neq(cleaned_start(s, (cleaned_ctx){.id = -1}).gen, 0);
    corral_type_stats t;
    corral_stats_type_of(s, &tracer_type, &t);
    cr_assert_eq(t.id, 10);
    cr_assert_eq(t.budget, 3);
    cr_assert_eq(t.failed, 1);
    corral_sched_destroy(s);
}

/* the registry's budgets in class 0 of 64 B: 2 shared slots + 5 reserved */
static corral_sched *reserved_sched(void)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.registry = &testreg_registry;
    d.classes[0].slot_size = 64;
    d.classes[0].capacity = 2; /* + 5 reserved = 7 */
    corral_sched *s = corral_sched_create(&d);
    cr_assert_not_null(s);
    return s;
}

Test(arena, budgeted_slots_are_reserved_against_unbudgeted_types)
{
    corral_sched *s = reserved_sched();
    corral_handle none = {0, 0};
    cr_assert_neq(start_actor(s, 1, NULL, none, NULL).gen, 0);
    cr_assert_neq(start_actor(s, 2, NULL, none, NULL).gen, 0);
    cr_assert_eq(start_actor(s, 3, NULL, none, NULL).gen, 0, "5 free slots are all reserved");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_POOL_EXHAUSTED);
    for (int i = 0; i < 3; i++) cr_assert_neq(start_tracer(s, i, 0).gen, 0);
    for (int i = 0; i < 2; i++) cr_assert_neq(cleaned_start(s, (cleaned_ctx){.id = -1}).gen, 0);
    cr_assert_eq(corral_live_count(s), 7);
    corral_sched_destroy(s);
}

/* A start inside a first step reads the reservations with the coroutine
   whose first step it is counted, though a plain type's is counted live
   only once that step is over: actor 1 starts actor 2 in its first step,
   which starts actor 3 in its own; 2 of the 7 slots are not reserved. */
static corral_sched *g_reserved_sched;
static corral_handle g_nested[4];
static corral_result start_the_next_actor(corral_co *co, struct actor_ctx *ctx)
{
    (void)co;
    if (ctx->steps == 1 && ctx->id < 3) {
        g_nested[ctx->id + 1] = start_actor(g_reserved_sched, ctx->id + 1, start_the_next_actor, ctx->other, NULL);
        if (ctx->id == 1) { /* a budgeted type's budget, read inside the first step */
            for (int i = 0; i < 4; i++) start_tracer(g_reserved_sched, 100 + i, 0);
        }
    }
    return CORRAL_YIELD;
}

Test(arena, a_start_inside_a_first_step_counts_the_starting_coroutine_against_the_reservations)
{
    corral_sched *s = g_reserved_sched = reserved_sched();
    corral_handle none = {0, 0};
    memset(g_nested, 0, sizeof g_nested);
    g_nested[1] = start_actor(s, 1, start_the_next_actor, none, NULL);
    cr_assert_neq(g_nested[1].gen, 0);
    cr_assert_neq(g_nested[2].gen, 0, "actor 2 takes the second free slot");
    cr_assert_eq(g_nested[3].gen, 0, "actor 3 would take a reserved one");
    corral_type_stats t;
    corral_stats_type_of(s, &tracer_type, &t);
    cr_assert_eq(t.live, 3, "three tracers inside actor 1's first step: its budget");
    cr_assert_eq(t.failed, 1);
    corral_stats_type_of(s, &actor_type, &t);
    cr_assert_eq(t.live, 2);
    cr_assert_eq(t.peak, 2);
    cr_assert_eq(t.failed, 1);
    for (int i = 0; i < 2; i++) cr_assert_neq(cleaned_start(s, (cleaned_ctx){.id = -1}).gen, 0);
    cr_assert_eq(corral_live_count(s), 7);
    corral_arena_stats a;
    corral_stats_arena(s, &a);
    cr_assert_eq(a.live_peak, 7);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

Test(arena, whole_state_is_position_independent_bytes)
{
    /* Every internal link is an offset: a byte copy of the block at another
       address is a working scheduler (the basis of snapshots). */
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = 64;
    d.classes[0].capacity = 32;
    size_t need = corral_sched_memory_size(&d);
    unsigned char *a = aligned_alloc(64, (need + 63) / 64 * 64);
    unsigned char *b = aligned_alloc(64, (need + 63) / 64 * 64);
    d.memory = a;
    d.memory_size = need;
    corral_sched *sa = corral_sched_create(&d);
    for (int i = 0; i < 10; i++) start_tracer(sa, i, 3 + i);
    corral_tick(sa, 0.1f);
    corral_handle h = start_tracer(sa, 42, 0);
    memcpy(b, a, need);
    corral_sched *sb = corral_sched_adopt(b, need);
    cr_assert_eq((unsigned char *)sb - b, (unsigned char *)sa - a);
    memset(a, 0xAB, need); /* the original is gone */
    trace_reset();
    corral_tick(sb, 0.1f);
    int want[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 42};
    expect_trace(want, 11);
    cr_assert(corral_alive(sb, h));
    cr_assert_eq(corral_live_count(sb), 10, "tracer 0 finished on its 3rd step");
    corral_sched_destroy(sb);
    free(a);
    free(b);
}

/* Spawns that finish in their first step give their budget back each time:
   100 of them through a budget of 3, then 3 that stay, then a refusal. */
Test(arena, budgeted_coroutines_finishing_in_their_first_step_give_the_budget_back)
{
    corral_sched *s = registry_sched();
    for (int i = 0; i < 100; i++) cr_assert_neq(start_tracer(s, i, 1).gen, 0, "spawn %d", i);
    /* class 1 (32 B) holds both registry types: 3 + 2 slots reserved */
    cr_assert_eq(s->arena.classes[1].reserved, 5, "each spawn gave its reservation back");
    for (int i = 0; i < 3; i++) cr_assert_neq(start_tracer(s, i, 0).gen, 0);
    cr_assert_eq(s->arena.classes[1].reserved, 2, "the 3 that stay hold theirs");
    cr_assert_eq(start_tracer(s, 9, 0).gen, 0, "budget of 3 reached");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_TYPE_BUDGET);
    corral_type_stats t;
    corral_stats_type_of(s, &tracer_type, &t);
    cr_assert_eq(t.started, 103);
    cr_assert_eq(t.finished, 100);
    cr_assert_eq(t.live, 3);
    cr_assert_eq(t.peak, 3);
    cr_assert_eq(t.failed, 1);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* ---- batch start */
Test(arena, start_n_starts_each_context_in_order_and_writes_its_handle)
{
    corral_sched *s = small_sched(8);
    trace_reset();
    tracer_ctx ctxs[5];
    for (int i = 0; i < 5; i++) ctxs[i] = (tracer_ctx){.id = i, .stop_after = 3};
    corral_handle h[5];
    cr_assert_eq(tracer_start_n(s, ctxs, 5, h), 5u);
    for (int i = 0; i < 5; i++) {
        cr_assert(corral_alive(s, h[i]));
        cr_assert_eq(tracer_ctx_of(s, h[i])->id, i, "handle %d is the coroutine of context %d", i, i);
    }
    int want[] = {0, 1, 2, 3, 4};
    expect_trace(want, 5); /* the first steps ran at once, in order */
    cr_assert_eq(tracer_start_n(s, ctxs, 0, h), 0u, "n = 0 starts nothing");
    cr_assert_eq(tracer_start_n(s, ctxs, 2, NULL), 2u, "out may be NULL");
    cr_assert_eq(corral_live_count(s), 7u);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(arena, start_n_stops_at_a_full_pool_and_says_how_many_started)
{
    corral_sched *s = small_sched(4);
    tracer_ctx ctxs[6];
    for (int i = 0; i < 6; i++) ctxs[i] = (tracer_ctx){.id = i, .stop_after = 0};
    corral_handle h[6];
    memset(h, 0, sizeof h);
    cr_assert_eq(tracer_start_n(s, ctxs, 6, h), 4u);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_POOL_EXHAUSTED);
    cr_assert_eq(h[4].gen, 0u, "nothing written past the last start");
    corral_type_stats t;
    corral_stats_type_of(s, &tracer_type, &t);
    cr_assert_eq(t.started, 4u);
    cr_assert_eq(t.failed, 1u, "the batch stops at its first refusal");
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(arena, start_n_keeps_a_types_budget)
{
    corral_sched *s = registry_sched();
    tracer_ctx ctxs[5];
    for (int i = 0; i < 5; i++) ctxs[i] = (tracer_ctx){.id = i, .stop_after = 0};
    cr_assert_eq(tracer_start_n(s, ctxs, 5, NULL), 3u, "budget of 3");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_TYPE_BUDGET);
    corral_sched_destroy(s);
}

Test(arena, start_n_refuses_bad_arguments_and_starts_nothing)
{
    corral_sched *s = small_sched(4);
    tracer_ctx ctxs[2] = {{.id = 1}, {.id = 2}};
    cr_assert_eq(corral_start_n(s, &tracer_type, NULL, sizeof ctxs[0], 2, NULL), 0u);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_NULL_ARG);
    cr_assert_eq(corral_start_n(s, &tracer_type, ctxs, sizeof ctxs[0] + 1, 2, NULL), 0u);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_CTX_SIZE_MISMATCH);
    cr_assert_eq(corral_start_n(NULL, &tracer_type, ctxs, sizeof ctxs[0], 2, NULL), 0u);
    cr_assert_eq(corral_live_count(s), 0u);
    corral_sched_destroy(s);
}
