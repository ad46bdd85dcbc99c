/* An import written as a scenario document: its descriptions handed to
 * the scenario writer (rune_io), so one writer serves every document. */
#include "rune/import.h"
#include "rune/io.h"
#include "../base/require.h"

rune_status rune_import_write_scenario(const rune_import *imp, FILE *f, rune_error *err)
{
    RUNE_REQUIRE(err, imp, "imp");
    RUNE_REQUIRE(err, f, "f");
    rune_document_desc doc = {imp->source, imp->joints, imp->joint_count, imp->clips, imp->clip_count,
                              imp->root_joint, 0};
    return rune_scenario_write(&doc, f, err);
}
