#define _POSIX_C_SOURCE 200809L /* open_memstream, strdup, strtok_r */
/* `rune eval FILE`: run a scenario and print every frame as JSON (the
 * contract in docs/eval-output.md). Output is built in memory and written
 * only on success, so bad input leaves stdout empty. */
#include "commands.h"
#include "json_out.h"
#include "rune/io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct eval_opts {
    const char *file;
    long first, last; /* frames [first, last) */
    char *joints;     /* comma-separated pose keys, or NULL for all */
} eval_opts;

typedef struct eval_out {
    FILE *f;
    const eval_opts *o;
    bool any;
    bool *keep; /* per joint */
    size_t joint_count;
    int status;
    char bad_joint[128];
} eval_out;

static const char *const kind_names[] = {"marker", "loop", "stopped"};

static void write_events(FILE *f, const rune_frame_report *r)
{
    fputs("[", f);
    for (size_t i = 0; i < r->event_count; i++) {
        const rune_scenario_event *e = &r->events[i];
        fputs(i ? ", {\"kind\": " : "{\"kind\": ", f);
        json_out_string(f, kind_names[e->kind]);
        fputs(", \"track\": ", f);
        json_out_string(f, e->source);
        if (e->kind == RUNE_EVENT_MARKER) {
            fputs(", \"name\": ", f);
            json_out_string(f, e->name);
            fputs(", \"value\": ", f);
            json_out_string(f, e->value);
            fputs(", \"time\": ", f);
            json_out_number(f, e->time);
        }
        fputs("}", f);
    }
    fputs("]", f);
}

/* Marks the joints named by --joints; false (with the name kept) if one is
 * not in the rig. */
static bool select_joints(eval_out *o, const rune_rig *rig)
{
    o->joint_count = rune_rig_joint_count(rig);
    o->keep = calloc(o->joint_count ? o->joint_count : 1, sizeof *o->keep);
    if (!o->keep)
        return false;
    if (!o->o->joints) {
        for (size_t j = 0; j < o->joint_count; j++)
            o->keep[j] = true;
        return true;
    }
    char *list = strdup(o->o->joints), *save = NULL;
    bool ok = list != NULL;
    for (char *tok = list ? strtok_r(list, ",", &save) : NULL; tok; tok = strtok_r(NULL, ",", &save)) {
        int32_t j = rune_rig_find(rig, tok);
        if (j < 0) {
            snprintf(o->bad_joint, sizeof o->bad_joint, "%s", tok);
            ok = false;
            break;
        }
        o->keep[j] = true;
    }
    free(list);
    return ok;
}

static void on_frame(void *user, const rune_frame_report *r)
{
    eval_out *o = user;
    if (o->status)
        return;
    if (!o->keep && !select_joints(o, r->rig)) {
        o->status = 2;
        return;
    }
    if (r->frame < o->o->first || r->frame >= o->o->last)
        return;
    FILE *f = o->f;
    fputs(o->any ? ",\n  " : "\n  ", f);
    o->any = true;
    fprintf(f, "{\"frame\": %d, \"time\": ", r->frame);
    json_out_number(f, r->time);
    fputs(", \"pose\": {", f);
    bool first = true;
    for (size_t j = 0; j < r->pose->count; j++) {
        if (!o->keep[j])
            continue;
        char name[256];
        fputs(first ? "" : ", ", f);
        first = false;
        json_out_string(f, rune_rig_joint_name(r->rig, j, name, sizeof name));
        rune_vec3 t = r->pose->t[j];
        rune_quat q = r->pose->r[j];
        fputs(": {\"t\": [", f);
        json_out_number(f, t.x), fputs(", ", f), json_out_number(f, t.y), fputs(", ", f), json_out_number(f, t.z);
        fputs("], \"r\": [", f);
        json_out_number(f, q.x), fputs(", ", f), json_out_number(f, q.y), fputs(", ", f);
        json_out_number(f, q.z), fputs(", ", f), json_out_number(f, q.w);
        fputs("], \"coverage\": ", f);
        json_out_number(f, r->pose->coverage[j]);
        fputs("}", f);
    }
    fputs("},\n   \"events\": ", f);
    write_events(f, r);
    fputs(", \"root_motion\": {\"dx\": ", f);
    json_out_number(f, r->root_motion.dx);
    fputs(", \"dz\": ", f);
    json_out_number(f, r->root_motion.dz);
    fputs(", \"yaw\": ", f);
    json_out_number(f, r->root_motion.yaw);
    fputs("}}", f);
}

static int parse_args(int argc, char **argv, eval_opts *o)
{
    o->first = 0;
    o->last = RUNE_SCENARIO_MAX_FRAMES + 1L;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
            char *end;
            const char *spec = argv[++i];
            o->first = strtol(spec, &end, 10);
            if (*end != ':' || o->first < 0) {
                fprintf(stderr, "rune eval: --frames %s: expected A:B (frames A to B-1)\n", spec);
                return 2;
            }
            const char *b = end + 1;
            o->last = *b ? strtol(b, &end, 10) : o->last;
            if (*b && (*end || o->last < o->first)) {
                fprintf(stderr, "rune eval: --frames %s: expected A:B with A <= B\n", spec);
                return 2;
            }
        } else if (strcmp(argv[i], "--joints") == 0 && i + 1 < argc) {
            o->joints = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "rune eval: unknown option \"%s\" (see rune --help)\n", argv[i]);
            return 2;
        } else if (!o->file) {
            o->file = argv[i];
        } else {
            fprintf(stderr, "rune eval: more than one FILE given\n");
            return 2;
        }
    }
    if (!o->file) {
        fprintf(stderr, "rune eval: missing FILE (usage: rune eval FILE [--frames A:B] [--joints P/J,...])\n");
        return 2;
    }
    return 0;
}

int cmd_eval(int argc, char **argv)
{
    eval_opts opts = {0};
    int rc = parse_args(argc, argv, &opts);
    if (rc)
        return rc;
    rune_error err = {0};
    rune_scenario *s;
    if (rune_scenario_load_file(opts.file, NULL, &s, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem) {
        rune_scenario_destroy(s);
        fprintf(stderr, "rune eval: out of memory\n");
        return 2;
    }
    eval_out out = {mem, &opts, false, NULL, 0, 0, ""};
    fputs("{\"frames\": [", mem);
    rune_status st = rune_scenario_run(s, NULL, on_frame, &out, &err);
    fputs(out.any ? "\n]}\n" : "]}\n", mem);
    fclose(mem);
    if (!st && out.status)
        snprintf(err.message, sizeof err.message, "%s: --joints: no joint \"%s\" in the rig", opts.file,
                 out.bad_joint);
    if (st || out.status) {
        fprintf(stderr, "%s\n", err.message);
        rc = 2;
    } else {
        fwrite(buf, 1, len, stdout);
    }
    free(buf);
    free(out.keep);
    rune_scenario_destroy(s);
    return rc;
}
