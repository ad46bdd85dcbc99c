/* The controls of a scenario run: each control command resolved and
 * checked before the first frame (joint and root names, the rig's
 * geometry), set or removed on the character when its frame comes, and
 * the live solver controls' states gathered for each frame's report. A
 * control is keyed by its name's first use in the document. */
#include "scenario_internal.h"
#include "../base/alloc.h"
#include "../base/name_index.h"

#include <stdio.h>
#include <string.h>

/* A joint the command names, the error prefixed "commands[i].FIELD: ". */
static rune_status find(const rune_library *lib, const char *name, size_t index, const char *field, int32_t *joint,
                        rune_error *err)
{
    if (!rune_library_find_joint(lib, name, joint, err))
        return RUNE_OK;
    rune_error_prefix(err, "commands[%zu].%s: ", index, field);
    return err ? (err->status = RUNE_E_INVALID) : RUNE_E_INVALID;
}

static rune_status prepare_one(const rune_library *lib, const rune_command *c, uint32_t id, rune_control *out,
                               rune_error *err)
{
    rune_status st;
    *out = c->control;
    out->id = id;
    if ((st = find(lib, c->joint, c->index, "joint", &out->joint, err)) ||
        (c->root && (st = find(lib, c->root, c->index, "root", &out->root, err))))
        return st;
    if ((st = rune_control_check(rune_library_rig(lib), out, err)))
        rune_error_prefix(err, "commands[%zu].", c->index);
    return st;
}

rune_status rune__run_controls_prepare(run_controls *rc, const rune_scenario *s, const rune_library *lib,
                                       const rune_allocator *alloc, rune_error *err)
{
    size_t n = s->command_count;
    rc->id = rune__calloc(alloc, n, sizeof *rc->id);
    rc->control = rune__calloc(alloc, n, sizeof *rc->control);
    rc->live = rune__calloc(alloc, n, sizeof *rc->live);
    rc->report = rune__calloc(alloc, n, sizeof *rc->report);
    if (!rc->id || !rc->control || !rc->live || !rc->report)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory preparing the scenario");
    for (size_t i = 0; i < n; i++)
        rc->live[i] = -1;
    rune__name_index first; /* each control name's first command */
    rune__name_index_init(&first, alloc);
    rune_status st = RUNE_OK;
    for (size_t i = 0; !st && i < n; i++) {
        const rune_command *c = &s->commands[i];
        if (c->kind != RUNE_CMD_CONTROL)
            continue;
        if (!rune__name_index_add(&first, NULL, 0, c->target, (int32_t)i)) {
            st = rune_fail(err, RUNE_E_NOMEM, "out of memory preparing the scenario");
            break;
        }
        rc->id[i] = (uint32_t)rune__name_index_find(&first, NULL, 0, c->target, NULL) + 1;
        st = c->remove ? RUNE_OK : prepare_one(lib, c, rc->id[i], &rc->control[i], err);
    }
    rune__name_index_release(&first);
    return st;
}

rune_status rune__run_controls_apply(run_controls *rc, rune_character *ch, const rune_scenario *s, size_t i,
                                     rune_error *err)
{
    int32_t *live = &rc->live[rc->id[i] - 1];
    if (s->commands[i].remove) {
        rune_character_remove_control(ch, rc->id[i]);
        *live = -1;
        return RUNE_OK;
    }
    rune_status st = rune_character_set_control(ch, &rc->control[i], err);
    if (!st)
        *live = (int32_t)i;
    return st;
}

void rune__run_controls_collect(run_controls *rc, const rune_character *ch, const rune_scenario *s)
{
    rc->report_count = 0;
    for (size_t id = 0; id < s->command_count; id++) {
        int32_t by = rc->live[id];
        if (by < 0 || rc->control[by].mode <= RUNE_CONTROL_OFFSET)
            continue;
        rune_scenario_control *out = &rc->report[rc->report_count];
        out->name = s->commands[by].target;
        out->mode = rc->control[by].mode;
        out->joint = rc->control[by].joint;
        if (rune_character_control_state(ch, (uint32_t)id + 1, &out->state))
            rc->report_count++;
    }
}

void rune__run_controls_free(run_controls *rc, const rune_scenario *s, const rune_allocator *alloc)
{
    size_t n = s->command_count;
    rune__free(alloc, rc->id, n, sizeof *rc->id);
    rune__free(alloc, rc->control, n, sizeof *rc->control);
    rune__free(alloc, rc->live, n, sizeof *rc->live);
    rune__free(alloc, rc->report, n, sizeof *rc->report);
}
