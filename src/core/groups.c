/*
    groups.c -- groups: the owner and tag memberships a coroutine joins at
    its start (group nodes on per-owner buckets and per-tag lists) and a
    stop request's deadline node. What is done to a whole group at once is
    group_ops.c's. A feature of the core: its table arrives with the first
    membership or deadline (corral__groups_use), and the core reaches it
    only through that table.
*/
#include "../corral_internal.h"
#include "arena.h"

/* the list a group node is on: its home bucket or tag list, or the side
   list of a group operation under way */
corral__list corral__group_list(corral_sched *s, const corral__node *n)
{
    corral__list l;
    if (n->list) {
        l.head = &s->groups.side_head[n->list - 1];
        l.tail = &s->groups.side_tail[n->list - 1];
    } else if (n->kind == CORRAL__NODE_TAG) {
        l.head = &s->groups.tag_head[n->u.g.tag];
        l.tail = &s->groups.tag_tail[n->u.g.tag];
    } else {
        uint32_t *b = (uint32_t *)(void *)CORRAL__AT(s, s->groups.owner_off);
        l.head = &b[2 * n->u.g.bucket];
        l.tail = &b[2 * n->u.g.bucket + 1];
    }
    return l;
}

bool corral__group_room(const char *call, corral_sched *s, corral__type_entry *te, uint64_t owner, uint32_t tags)
{
    if (!corral__part_needed(call, s, NULL, s->parts.feature[CORRAL__FEATURE_GROUPS], "groups")) {
        /* no membership without the part: nothing to count but the failure */
    } else if (s->nodes.group_free_count < corral__nodes_needed(owner, tags)) {
        s->nodes.group_failures++;
        corral__fail_at(s, NULL, CORRAL_ERR_GROUP_POOL_EXHAUSTED, call, CORRAL__NOH, NULL, NULL);
    } else if (corral__sides_room(call, s, NULL, "none for the start's owner/tags")) {
        return true; /* its nodes, and the side record that holds their chain */
    }
    te->failed++;
    return false;
}

bool corral__join_groups(const char *call, corral_sched *s, corral_co *co, uint64_t owner, uint32_t tags)
{
    uint32_t need = corral__nodes_needed(owner, tags);
    if (need == 0) return true;
    if (s->nodes.group_free_count < need) {
        s->nodes.group_failures++;
        corral__fail_at(s, NULL, CORRAL_ERR_GROUP_POOL_EXHAUSTED, call, CORRAL__NOH, NULL, NULL);
        return false;
    }
    corral__side *sd = corral__side_take(call, s, corral__meta_of(s, co));
    if (!sd) return false;
    for (int bit = -1; bit < 32; bit++) {
        if (bit < 0 ? owner == 0 : !(tags & (1u << bit))) continue;
        uint32_t i = corral__group_node_alloc(s);
        corral__node *n = &corral__nodes(s)[i];
        n->co = corral__co_off(s, co);
        n->kind = bit < 0 ? CORRAL__NODE_OWNER : CORRAL__NODE_TAG;
        n->u.g.owner = owner;
        n->u.g.tag = bit < 0 ? 0 : (uint32_t)bit;
        n->u.g.bucket = corral__owner_bucket(s, owner);
        n->list = 0;
        n->attached = 1;
        n->order = s->nodes.order++;
        n->sibling = sd->groups;
        sd->groups = i;
        corral__list_push(s, corral__list_of(s, n), i);
    }
    return true;
}

void corral__leave_groups(corral_sched *s, corral_co *co)
{
    corral__free_chain(s, &corral__side_at(s, corral__meta_of(s, co))->groups);
}

/* ---- a stop request's deadline: a timer node chained with the group
   nodes (the request itself is group_ops.c's) */

uint32_t corral__deadline_of(const corral_sched *s, const corral_co *co)
{
    const corral__node *N = corral__nodes(s);
    uint32_t i = corral__side_of(s, corral__meta_of(s, co))->groups;
    while (i != CORRAL__NIL && N[i].kind != CORRAL__NODE_DEADLINE) i = N[i].sibling;
    return i;
}

uint32_t corral__deadline_node(corral_sched *s, corral_co *co)
{
    corral__side *sd = corral__side_at(s, corral__meta_of(s, co)); /* the caller took it */
    uint32_t i = corral__node_alloc(s);
    corral__node *n = &corral__nodes(s)[i];
    n->co = corral__co_off(s, co);
    n->kind = CORRAL__NODE_DEADLINE;
    n->attached = 1;
    n->order = s->nodes.order++;
    n->sibling = sd->groups;
    sd->groups = i;
    return i;
}

void corral__deadline_drop(corral_sched *s, corral_co *co)
{
    corral__node *N = corral__nodes(s);
    const corral__meta *m = corral__meta_of(s, co);
    if (!corral__co_sided(m)) return;
    uint32_t *at = &corral__side_at(s, m)->groups;
    while (*at != CORRAL__NIL && N[*at].kind != CORRAL__NODE_DEADLINE) at = &N[*at].sibling;
    if (*at == CORRAL__NIL) return;
    uint32_t i = *at;
    *at = N[i].sibling;
    corral__detach(s, i);
    corral__node_free(s, i);
}

static const corral__groups_part corral__groups_table = {
    .leave = corral__leave_groups,
    .list = corral__group_list,
    .deadline_drop = corral__deadline_drop,
};
const corral_part corral_part_groups = {
    .feature = CORRAL__FEATURE_GROUPS,
    .table = &corral__groups_table,
};
