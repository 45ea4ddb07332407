/*
    interpreter -- the deeply-nested seed: a byte-code interpreter whose
    call and kernel instructions run as coroutines, a few of which yield.

    Each function call is a corral call (CORRAL_CALL) to a new `vm` frame:
    the calls nest 1,000 deep. Only the WAIT kernel instruction yields; a
    call chain that never waits costs no frame, so the frame count printed
    before and after the 1,000-deep call is the same, and a WAIT at depth
    500 costs exactly one frame. The chain is run and unwound iteratively:
    the C stack never sees the depth.
*/
#include <corral/corral.h>

#include <stdio.h>

enum { OP_RET, OP_CALL_DEEPER, OP_IF_DEPTH_LT, OP_IF_DEPTH_EQ, OP_WAIT, OP_INC, OP_PRINT };

typedef struct op {
    int code, arg;
} op;

/* f(depth): if depth < 1000 then acc = f(depth + 1) end; if depth == 500
   then wait end; acc = acc + 1; return acc */
static const op g_fn[] = {
    {OP_IF_DEPTH_LT, 1000}, {OP_CALL_DEEPER, 0}, /* skipped unless depth < 1000 */
    {OP_IF_DEPTH_EQ, 500},  {OP_WAIT, 0},        /* a kernel call that yields */
    {OP_INC, 0},            {OP_RET, 0},
};

static corral_sched *g_s;

#define VM_FIELDS(F)     \
    F(const op *, code)  \
    F(int, pc)           \
    F(int, depth)        \
    F(int, sub)
DECLARE_COROUTINE_R(vm, VM_FIELDS, int)
DEFINE_COROUTINE(vm)
{
    CORRAL_BEGIN(co);
    while (ctx->code[ctx->pc].code != OP_RET) {
        const op in = ctx->code[ctx->pc++];
        if (in.code == OP_IF_DEPTH_LT) {
            if (!(ctx->depth < in.arg)) ctx->pc++;
        } else if (in.code == OP_IF_DEPTH_EQ) {
            if (ctx->depth != in.arg) ctx->pc++;
        } else if (in.code == OP_CALL_DEEPER) {
            CORRAL_CALL(co, vm, (vm_ctx){.code = ctx->code, .depth = ctx->depth + 1}, &ctx->sub);
            ctx->result = ctx->sub;
        } else if (in.code == OP_WAIT) {
            printf("  depth %4d: WAIT (a kernel call that yields) at frame %llu\n", ctx->depth,
                   (unsigned long long)corral_frame(g_s));
            CORRAL_WAIT_FRAME(co);
        } else if (in.code == OP_INC) {
            ctx->result++;
        }
    }
    CORRAL_END(co);
}

#define MAIN_FIELDS(F) \
    F(int, deep)       \
    F(int64_t, before)
DECLARE_COROUTINE(program, MAIN_FIELDS)
DEFINE_COROUTINE(program)
{
    CORRAL_BEGIN(co);
    ctx->before = (int64_t)corral_frame(g_s);
    printf("frame %lld: calling f(1), which recurses to depth 1000\n", (long long)ctx->before);
    CORRAL_CALL(co, vm, (vm_ctx){.code = g_fn, .depth = 1}, &ctx->deep);
    printf("frame %llu: f returned %d; frames spent: %llu (only the WAIT cost one)\n",
           (unsigned long long)corral_frame(g_s), ctx->deep,
           (unsigned long long)(corral_frame(g_s) - (uint64_t)ctx->before));
    CORRAL_END(co);
}

int main(void)
{
    corral_sched_desc d = {.classes = {{.slot_size = 48, .capacity = 1100}}};
    g_s = corral_sched_create(&d);
    if (!g_s) return 1;
    corral_tick(g_s, 1.0f / 60.0f); /* start at frame 1, inside a running game */
    program_start(g_s, (program_ctx){0});
    printf("after the start: %u coroutines live (the chain waits at depth 500)\n", corral_live_count(g_s));
    while (corral_live_count(g_s) > 0) corral_tick(g_s, 1.0f / 60.0f);
    corral_report_text(g_s, stdout);
    corral_sched_destroy(g_s);
    return 0;
}
