/* No ACL checkout was given to CMake (-DRUNE_ACL_DIR): nothing of ACL is
 * measured, and the report says so (bench/acl_anchor.h). */
#include "acl_anchor.h"

const char *bench_acl_name(void) { return NULL; }

bench_acl_clip bench_acl_measure(const bench_plan *p, const rune_rig *rig, const rune_clip *clip,
                                 const rune_clip_compression *grid, float precision, float shell)
{
    (void)p, (void)rig, (void)clip, (void)grid, (void)precision, (void)shell;
    return (bench_acl_clip){-1.0, -1.0, -1.0, 0, 0};
}
