/*
    synctest.c -- the sync test (API.md, "The sync test"): every frame the
    game's frame runs with its input, then the last `frames` frames are
    rewound from kept snapshots (snapshot.c's ring) and played again with
    the inputs they had; each frame played again must reach the state
    hash its first run reached. The first that does not is a step that
    does not follow from its state and input: reported at once, with its
    frame and both hashes.

    Its state is the caller's corral_synctest and the inputs' memory
    (desc.memory): nothing of it is in the scheduler's block, which the
    rewinds overwrite.
*/
#include "../corral_internal.h"

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
