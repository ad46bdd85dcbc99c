/* `rune bench`: the options, the machine's floor, then every row of
 * bench_kernels.c, bench_crowds.c and bench_growth.c in one run, so each
 * figure can be read as a ratio to the others (absolute times on shared
 * machines are noise, ratios measured together much less so). */
#define _POSIX_C_SOURCE 200809L /* sysconf */
#include "bench.h"
#include "math/simd_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
    "usage: rune bench [--quick] [--json] [--simd LEVEL] [--workers N] [--cpu N] [--only SECTION | --graph-crowd COUNT]\n"
    "  Prints throughput figures (method: docs/performance.md): forward and random-time\n"
    "  sampling, sample + blend, blending finished poses, an override layer, local-to-model\n"
    "  matrices and transforms, a 2D blend space, crowds of characters, IK solvers and an IK\n"
    "  crowd, retargeted clips, CMU mocap, cost growth, compressed clips and crowds.\n"
    "  Each row beside the naive reference, the machine's measured floor and, when CMake was\n"
    "  given their checkouts (-DRUNE_OZZ_DIR, -DRUNE_ACL_DIR), ozz-animation's or ACL's figure\n"
    "  for the same work with a same-result check, as ratios measured in this run.\n"
    "  --quick       fewer and shorter samples, crowds of 1,000\n"
    "  --json        one JSON document on stdout instead of the table\n"
    "  --simd LEVEL  kernels to measure: auto scalar sse2 avx2 avx2fma avx512 (default auto)\n"
    "  --workers N   crowd workers beside the caller (default: cores - 1)\n"
    "  --cpu N       pin the caller (which times every row) to CPU N; crowd workers stay unpinned\n"
    "  --only SECTION  one section: kernels crowds ik retarget growth assets compression loads skin\n"
    "  --graph-crowd COUNT  only the graph crowd's row: COUNT characters (1 to 100000) and\n"
    "                --workers workers, 40 single frames timed (median and fastest); not with --only\n";

/* The sections in the order they run; --only picks one. */
static const char *const sections[] = {"kernels", "crowds", "ik",          "retarget", "growth",
                                       "assets",  "compression", "loads", "skin"};
enum { SECTION_COUNT = sizeof sections / sizeof sections[0] };

static int section_named(const char *name)
{
    for (int i = 0; i < SECTION_COUNT; i++)
        if (strcmp(sections[i], name) == 0)
            return i;
    return -1;
}

static int bad_argument(const char *what, const char *arg)
{
    fprintf(stderr, "rune bench: %s \"%s\" (see rune bench --help)\n", what, arg);
    return 2;
}

int rune_bench_main(int argc, char **argv)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    bench_report report = {false, true};
    bench_plan plan = {49, 0.002, false, RUNE_SIMD_AUTO, cores > 1 ? (size_t)cores - 1 : 0, NULL, &report, 0};
    int only = -1;          /* every section */
    size_t graph_crowd = 0; /* --graph-crowd: that row alone */
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            return 0;
        } else if (strcmp(a, "--quick") == 0) {
            plan.quick = true;
        } else if (strcmp(a, "--json") == 0) {
            report.json = true;
        } else if (strcmp(a, "--simd") == 0 && i + 1 < argc) {
            int level = rune_simd_from_name(argv[++i]);
            if (level < 0)
                return bad_argument("unknown kernel level", argv[i]);
            plan.level = (rune_simd_level)level;
            if (!rune_simd_supported(plan.level))
                return bad_argument("this CPU or build lacks kernel level", argv[i]);
        } else if (strcmp(a, "--workers") == 0 && i + 1 < argc) {
            char *end;
            unsigned long n = strtoul(argv[++i], &end, 10);
            if (*end || end == argv[i] || n > 64)
                return bad_argument("--workers takes 0 to 64, not", argv[i]);
            plan.workers = (size_t)n;
        } else if (strcmp(a, "--cpu") == 0 && i + 1 < argc) {
            char *end;
            unsigned long n = strtoul(argv[++i], &end, 10);
            if (*end || end == argv[i] || n >= (unsigned long)cores || !bench_pin((int)n))
                return bad_argument("--cpu takes a CPU this process may run on, not", argv[i]);
        } else if (strcmp(a, "--only") == 0 && i + 1 < argc) {
            only = section_named(argv[++i]);
            if (only < 0)
                return bad_argument("unknown section", argv[i]);
        } else if (strcmp(a, "--graph-crowd") == 0 && i + 1 < argc) {
            char *end;
            unsigned long n = strtoul(argv[++i], &end, 10);
            if (*end || end == argv[i] || n < 1 || n > 100000)
                return bad_argument("--graph-crowd takes 1 to 100000 characters, not", argv[i]);
            graph_crowd = (size_t)n;
            plan.frames = 40;
        } else {
            return bad_argument("unknown argument", a);
        }
    }
    if (graph_crowd && only >= 0) /* one row, or one section: not both */
        return bad_argument("--graph-crowd runs one row of its own; it does not go with --only", sections[only]);
    if (plan.quick) {
        plan.samples = 9;
        plan.sample_s = 0.001;
    }
    bench_machine machine = bench_machine_measure(plan.quick);
    plan.machine = &machine;
    bench_report_begin(&report, rune_simd_name(rune_simd_resolve(plan.level)), cores, &machine, plan.quick);

    bench_scene s, varied;
    if (bench_scene_make(&s, 64, 8)) {
        fprintf(stderr, "rune bench: cannot build the synthetic scene\n");
        return 2;
    }
    if (graph_crowd) {
        int rc = bench_graph_crowd_row(&plan, &s, graph_crowd);
        bench_scene_free(&s);
        bench_report_end(&report);
        if (rc)
            fprintf(stderr, "rune bench: the graph crowd could not be built (out of memory?)\n");
        return rc ? 2 : 0;
    }
    if (bench_scene_make(&varied, 64, 64)) {
        bench_scene_free(&s);
        fprintf(stderr, "rune bench: cannot build the synthetic scene of 64 clips\n");
        return 2;
    }
    bool run[SECTION_COUNT];
    for (int i = 0; i < SECTION_COUNT; i++)
        run[i] = only < 0 || only == i;
    int rc = 0;
    rc |= run[0] ? bench_kernel_rows(&plan, &s) : 0;
    rc |= run[1] ? bench_crowd_rows(&plan, &s, &varied) : 0;
    rc |= run[2] ? bench_ik_rows(&plan, &s) : 0;
    rc |= run[3] ? bench_retarget_rows(&plan, &s) : 0;
    bench_scene_free(&varied);
    rc |= run[4] ? bench_growth_rows(&plan) : 0;
    rc |= run[5] ? bench_asset_rows(&plan) : 0;
    rc |= run[6] ? bench_compression_rows(&plan, &s) : 0;
    rc |= run[7] ? bench_load_rows(&plan) : 0;
    rc |= run[8] ? bench_skin_rows(&plan) : 0;
    bench_scene_free(&s);
    bench_report_end(&report);
    if (rc)
        fprintf(stderr, "rune bench: a scene could not be built (out of memory?)\n");
    return rc ? 2 : 0;
}
