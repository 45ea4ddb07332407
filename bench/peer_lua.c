/*
    peer_lua.c -- Lua coroutines, built twice as a loadable module: against
    Lua 5.4 (BENCH_LUA54) and against LuaJIT (BENCH_LUAJIT). Both libraries
    export the same lua_* names, so each module is dlopen'ed RTLD_LOCAL and
    keeps its own. The scheduler loop runs in Lua (the fastest way to drive
    Lua coroutines); C times the call around it.
*/
#include "bench.h"

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include <stdio.h>
#include <stdlib.h>

static const char *lua_bench_src =
    "local create, resume, yield = coroutine.create, coroutine.resume, coroutine.yield\n"
    "local cos, ctxs = {}, {}\n"
    "local function body(k) return function(c) while true do c.n = c.n + k + 1; yield() end end end\n"
    "local bodies = {} for k = 0, 7 do bodies[k] = body(k) end\n"
    "function setup(n, mixed)\n"
    "  cos, ctxs = {}, {}\n"
    "  for i = 1, n do\n"
    "    local c = {n = 0}\n"
    "    local co = create(bodies[mixed and type_of(i - 1) or 0])\n"
    "    resume(co, c)\n"
    "    cos[i] = co; ctxs[i] = c\n"
    "  end\n"
    "end\n"
    "function run(ticks) local n = #cos for t = 1, ticks do for i = 1, n do resume(cos[i]) end end end\n"
    "function checksum() local s = 0 for i = 1, #ctxs do s = s + ctxs[i].n end cos, ctxs = {}, {} return s end\n"
    "local function rec(c, d) if d == 0 then while true do c.n = c.n + 1; yield() end end return rec(c, d - 1) end\n"
    "function nest_setup(chains, depth)\n"
    "  cos, ctxs = {}, {}\n"
    "  for i = 1, chains do local c = {n = 0}; local co = create(function() rec(c, depth) end); resume(co); cos[i] = co; ctxs[i] = c end\n"
    "end\n"
    "local function once(c) c.n = c.n + 1 end\n"
    "function spawn(count) local s = 0 for i = 1, count do local c = {n = i - 1}; resume(create(once), c); s = s + c.n end return s end\n"
    "function memory(n, words)\n"
    "  local src = 'local yield = ... return function() local '\n"
    "  for w = 1, words do src = src .. (w > 1 and ',' or '') .. 'a' .. w end\n"
    "  src = src .. ' = 0' for w = 2, words do src = src .. ',0' end\n"
    "  src = src .. ' while true do a1 = a1 + 1 yield() end end'\n"
    "  local f = (loadstring or load)(src)(yield)\n"
    "  collectgarbage() collectgarbage()\n"
    "  local before = collectgarbage('count')\n"
    "  local keep = {}\n"
    "  for i = 1, n do local co = create(f); resume(co); keep[i] = co end\n"
    "  collectgarbage() collectgarbage()\n"
    "  local per = (collectgarbage('count') - before) * 1024 / n\n"
    "  keep = nil collectgarbage()\n"
    "  return per\n"
    "end\n";

static lua_State *g_L;
static int g_counting; /* allocations visible to bench_alloc_calls */

static int l_type_of(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)bench_type_of((size_t)luaL_checkinteger(L, 1)));
    return 1;
}

static lua_State *lua_bench_state(void)
{
    if (g_L) return g_L;
    lua_State *L = luaL_newstate(); /* Lua 5.4 allocates through realloc: counted */
    if (!L) return NULL;
    luaL_openlibs(L);
    lua_register(L, "type_of", l_type_of);
    if (luaL_loadstring(L, lua_bench_src) != 0 || lua_pcall(L, 0, 0, 0) != 0) {
        fprintf(stderr, "lua bench: %s\n", lua_tostring(L, -1));
        lua_close(L);
        return NULL;
    }
    g_L = L;
    return L;
}

static int call(lua_State *L, const char *fn, int nargs_pushed_after, double a, double b, double *ret)
{
    lua_getglobal(L, fn);
    if (nargs_pushed_after >= 1) lua_pushnumber(L, a);
    if (nargs_pushed_after >= 2) lua_pushboolean(L, b != 0);
    if (lua_pcall(L, nargs_pushed_after, 1, 0) != 0) {
        fprintf(stderr, "lua bench %s: %s\n", fn, lua_tostring(L, -1));
        lua_pop(L, 1);
        return -1;
    }
    if (ret) *ret = lua_tonumber(L, -1);
    lua_pop(L, 1);
    return 0;
}

static int lua_loop(size_t n, int ticks, int mixed, bench_out *out)
{
    lua_State *L = lua_bench_state();
    if (!L || call(L, "setup", 2, (double)n, mixed, NULL) != 0) return -1;
    uint64_t expected = 0;
    for (size_t i = 0; i < n; i++)
        expected += (uint64_t)((mixed ? bench_type_of(i) : 0) + 1) * (uint64_t)(ticks + 1);
    uint64_t a0 = bench_alloc_calls(), t0 = bench_now_ns();
    if (call(L, "run", 1, ticks, 0, NULL) != 0) return -1;
    out->t_ns = bench_now_ns() - t0;
    out->allocs = g_counting ? bench_alloc_calls() - a0 : 0;
    out->ops = (uint64_t)n * (uint64_t)ticks;
    double sum = 0;
    if (call(L, "checksum", 0, 0, 0, &sum) != 0) return -1;
    lua_gc(L, LUA_GCCOLLECT, 0);
    out->checksum = (uint64_t)sum;
    out->expected = expected;
    return 0;
}

static int lua_step(size_t n, int ticks, bench_out *out) { return lua_loop(n, ticks, 0, out); }
static int lua_mixed(size_t n, int ticks, bench_out *out) { return lua_loop(n, ticks, 1, out); }

static int lua_spawn(size_t count, bench_out *out)
{
    lua_State *L = lua_bench_state();
    if (!L) return -1;
    double sum = 0;
    uint64_t a0 = bench_alloc_calls(), t0 = bench_now_ns();
    if (call(L, "spawn", 1, (double)count, 0, &sum) != 0) return -1;
    out->t_ns = bench_now_ns() - t0;
    out->allocs = g_counting ? bench_alloc_calls() - a0 : 0;
    out->ops = count;
    out->checksum = (uint64_t)sum;
    out->expected = (uint64_t)count * (count + 1) / 2;
    return 0;
}

static int lua_nested(size_t chains, int depth, int ticks, bench_out *out)
{
    lua_State *L = lua_bench_state();
    if (!L) return -1;
    lua_getglobal(L, "nest_setup");
    lua_pushnumber(L, (double)chains);
    lua_pushnumber(L, depth);
    if (lua_pcall(L, 2, 0, 0) != 0) return -1;
    uint64_t a0 = bench_alloc_calls(), t0 = bench_now_ns();
    if (call(L, "run", 1, ticks, 0, NULL) != 0) return -1;
    out->t_ns = bench_now_ns() - t0;
    out->allocs = g_counting ? bench_alloc_calls() - a0 : 0;
    out->ops = (uint64_t)chains * (uint64_t)ticks;
    double sum = 0;
    if (call(L, "checksum", 0, 0, 0, &sum) != 0) return -1;
    lua_gc(L, LUA_GCCOLLECT, 0);
    out->checksum = (uint64_t)sum;
    out->expected = (uint64_t)chains * (uint64_t)(ticks + 1);
    return 0;
}

static int lua_memory(size_t n, int ctx_bytes, bench_out *out)
{
    lua_State *L = lua_bench_state();
    if (!L) return -1;
    double per = 0;
    lua_getglobal(L, "memory");
    lua_pushnumber(L, (double)n);
    lua_pushnumber(L, ctx_bytes / 8); /* one local per 8 bytes of context */
    if (lua_pcall(L, 2, 1, 0) != 0) return -1;
    per = lua_tonumber(L, -1);
    lua_pop(L, 1);
    out->bytes_per_co = per;
    out->checksum = out->expected = out->ops = 1;
    out->note = "a local per 8 ctx bytes";
    return 0;
}

#if defined(BENCH_LUAJIT)
#define LUA_PEER_NAME "LuaJIT coroutines"
#else
#define LUA_PEER_NAME "Lua 5.4 coroutines"
#endif

static bench_peer lua_peer = {
    .name = LUA_PEER_NAME,
    .step = lua_step,
    .mixed = lua_mixed,
    .spawn = lua_spawn,
    .memory = lua_memory,
    .nested = lua_nested,
};

__attribute__((visibility("default"))) const bench_peer *bench_module_peer(void)
{
#if defined(BENCH_LUAJIT)
    g_counting = 0; /* LuaJIT's own allocator maps memory itself: malloc never sees it */
#else
    g_counting = 1;
#endif
    return &lua_peer;
}
