/* No ozz-animation checkout was given to CMake (-DRUNE_OZZ_DIR): nothing
 * of ozz is measured, and the report says so (bench/ozz_anchor.h). */
#include "ozz_anchor.h"

const char *bench_ozz_name(void) { return NULL; }

static bench_anchor none(void) { return (bench_anchor){-1.0, 0, 0, 0}; }

bench_anchor bench_ozz_two_bone(const bench_plan *p, const rune_ik_two_bone_job *jobs, size_t n)
{
    (void)p, (void)jobs, (void)n;
    return none();
}

bench_anchor bench_ozz_aim(const bench_plan *p, const rune_ik_aim_job *jobs, size_t n)
{
    (void)p, (void)jobs, (void)n;
    return none();
}

bench_anchor bench_ozz_kernel(const bench_plan *p, const bench_scene *s, bench_ozz_work work,
                              const bench_timed *timed)
{
    (void)p, (void)s, (void)work, (void)timed;
    return none();
}

bench_anchor bench_ozz_crowd(const bench_plan *p, const bench_scene *s, size_t count)
{
    (void)p, (void)s, (void)count;
    return none();
}

bench_anchor bench_ozz_skin(const bench_plan *p, const bench_skin_mesh *m)
{
    (void)p, (void)m;
    return none();
}

bench_ozz_clip bench_ozz_sampling(const bench_plan *p, const rune_rig *rig, const rune_binding *exact, float key_hz,
                                  float precision, float shell)
{
    (void)p, (void)rig, (void)exact, (void)key_hz, (void)precision, (void)shell;
    return (bench_ozz_clip){-1.0, -1.0, -1.0, -1.0, 0, 0, 0.0};
}
