/* Golden scenario checker: runs `rune eval` on a scenario and checks the
 * expectations of its .expect file, whose values are worked out by hand.
 *
 * Expect lines (# starts a comment):
 *   args ARG...                  extra arguments for rune eval
 *   exit N                       expected exit status (default 0)
 *   stderr TEXT                  stderr must contain TEXT
 *   tol X                        tolerance for the lines after it (1e-6)
 *   frames N                     number of frames printed
 *   t FRAME JOINT X Y Z          translation
 *   m FRAME JOINT X Y Z          model position (with args --model)
 *   r FRAME JOINT X Y Z W        rotation (q and -q are equal)
 *   cov FRAME JOINT C            coverage
 *   events FRAME N               number of events
 *   event FRAME I KIND TRACK [NAME [VALUE [TIME]]]
 *   root FRAME DX DZ YAW         root motion
 *   ctl FRAME NAME ERROR         a solver control's error ("controls")
 *   curve FRAME NAME V [C]       a float curve's value (and coverage; 1 when
 *                                left out: then it must print as a number)
 *   nocurves                     no frame prints "curves"
 *   same FRAME_A FRAME_B JOINT   identical pose at two frames (within tol)
 *   finite                       every number in the output is finite
 */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static int failures;
static const char *expect_name;
static int line_no;

static void fail(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "%s:%d: ", expect_name, line_no);
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    failures++;
}

static char *read_all(FILE *f)
{
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (cap - len < 2) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                return NULL;
            }
            buf = nb;
        }
    }
    if (buf)
        buf[len] = '\0';
    return buf;
}

static json_t *frame_at(json_t *doc, long frame)
{
    json_t *frames = json_object_get(doc, "frames");
    size_t i;
    json_t *f;
    json_array_foreach(frames, i, f) {
        if (json_integer_value(json_object_get(f, "frame")) == frame)
            return f;
    }
    return NULL;
}

static json_t *joint_at(json_t *doc, long frame, const char *joint)
{
    json_t *f = frame_at(doc, frame);
    if (!f) {
        char fr[32];
        snprintf(fr, sizeof fr, "%ld", frame);
        fail("no frame %s in output%s", fr, "");
        return NULL;
    }
    json_t *j = json_object_get(json_object_get(f, "pose"), joint);
    if (!j)
        fail("no joint %s in frame output%s", joint, "");
    return j;
}

static void check_num(const char *what, double got, double want, double tol)
{
    if (!(fabs(got - want) <= tol)) {
        char g[64], w[96];
        snprintf(g, sizeof g, "%.9g", got);
        snprintf(w, sizeof w, "%.9g (tol %g) for %s", want, tol, what);
        fail("got %s, expected %s", g, w);
    }
}

static void check_vec(json_t *arr, const double *want, size_t n, double tol, bool sign_free, const char *what)
{
    double s = 1.0;
    if (sign_free) {
        double d = 0;
        for (size_t i = 0; i < n; i++)
            d += json_number_value(json_array_get(arr, i)) * want[i];
        s = d < 0 ? -1.0 : 1.0;
    }
    for (size_t i = 0; i < n; i++)
        check_num(what, s * json_number_value(json_array_get(arr, i)), want[i], tol);
}

/* Counts numbers that are not finite anywhere below v. */
static int non_finite(json_t *v)
{
    int bad = 0;
    if (json_is_real(v))
        return !isfinite(json_real_value(v));
    if (json_is_array(v)) {
        size_t i;
        json_t *x;
        json_array_foreach(v, i, x) bad += non_finite(x);
    } else if (json_is_object(v)) {
        const char *k;
        json_t *x;
        json_object_foreach(v, k, x) bad += non_finite(x);
    }
    return bad;
}

static int words(char *line, char **w, int max)
{
    int n = 0;
    for (char *tok = strtok(line, " \t\r\n"); tok && n < max; tok = strtok(NULL, " \t\r\n"))
        w[n++] = tok;
    return n;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: scenario_check RUNE SCENARIO.json SCENARIO.expect\n");
        return 2;
    }
    expect_name = argv[3];
    FILE *ef = fopen(argv[3], "r");
    if (!ef) {
        fprintf(stderr, "cannot open %s\n", argv[3]);
        return 2;
    }
    char *expect = read_all(ef);
    fclose(ef);
    if (!expect)
        return 2;

    /* first pass: args */
    char args[1024] = "";
    for (char *l = expect; l && *l;) {
        char *nl = strchr(l, '\n');
        if (strncmp(l, "args ", 5) == 0) {
            size_t len = nl ? (size_t)(nl - l - 5) : strlen(l + 5);
            strncat(args, " ", sizeof args - strlen(args) - 1);
            strncat(args, l + 5, len < sizeof args - strlen(args) - 1 ? len : sizeof args - strlen(args) - 1);
        }
        l = nl ? nl + 1 : NULL;
    }
    char errfile[] = "/tmp/rune-check-XXXXXX";
    int fd = mkstemp(errfile);
    if (fd < 0)
        return 2;
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' eval '%s'%s 2>'%s'", argv[1], argv[2], args, errfile);
    FILE *p = popen(cmd, "r");
    char *out = p ? read_all(p) : NULL;
    int status = p ? pclose(p) : -1;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
    FILE *errf = fopen(errfile, "r");
    char *errtext = errf ? read_all(errf) : NULL;
    if (errf)
        fclose(errf);
    remove(errfile);
    if (!out || !errtext)
        return 2;

    json_error_t jerr;
    json_t *doc = NULL;
    int want_exit = 0;
    double tol = 1e-6;
    char *save = NULL;
    line_no = 0;
    for (char *l = strtok_r(expect, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        line_no++;
        char *w[16];
        char copy[1024];
        snprintf(copy, sizeof copy, "%s", l);
        if (copy[0] == '#')
            continue;
        int n = words(copy, w, 16);
        if (n == 0 || strcmp(w[0], "args") == 0)
            continue;
        if (strcmp(w[0], "exit") == 0 && n == 2) {
            want_exit = atoi(w[1]);
            continue;
        }
        if (strcmp(w[0], "stderr") == 0) {
            const char *text = l + 7;
            if (!strstr(errtext, text))
                fail("stderr lacks \"%s\"; it was: %s", text, errtext);
            continue;
        }
        if (strcmp(w[0], "tol") == 0 && n == 2) {
            tol = atof(w[1]);
            continue;
        }
        if (!doc) {
            if (code != want_exit || want_exit != 0)
                break;
            doc = json_loads(out, 0, &jerr);
            if (!doc) {
                fail("output is not JSON: %s%s", jerr.text, "");
                break;
            }
        }
        if (strcmp(w[0], "finite") == 0 && n == 1) {
            if (non_finite(doc))
                fail("output holds non-finite numbers%s%s", "", "");
        } else if (strcmp(w[0], "frames") == 0 && n == 2) {
            check_num("frame count", (double)json_array_size(json_object_get(doc, "frames")), atof(w[1]), 0);
        } else if (strcmp(w[0], "noscale") == 0 && n == 1) {
            json_t *f = frame_at(doc, 0), *pose = f ? json_object_get(f, "pose") : NULL, *j;
            const char *name;
            json_object_foreach(pose, name, j) if (json_object_get(j, "s")) fail("joint %s prints \"s\"%s", name, "");
        } else if (((strcmp(w[0], "t") == 0 || strcmp(w[0], "s") == 0 || strcmp(w[0], "m") == 0) && n == 6) ||
                   (strcmp(w[0], "r") == 0 && n == 7)) {
            json_t *j = joint_at(doc, atol(w[1]), w[2]);
            double v[4] = {atof(w[3]), atof(w[4]), atof(w[5]), n == 7 ? atof(w[6]) : 0};
            if (j)
                check_vec(json_object_get(j, w[0]), v, n == 7 ? 4 : 3, tol, n == 7, l);
        } else if (strcmp(w[0], "cov") == 0 && n == 4) {
            json_t *j = joint_at(doc, atol(w[1]), w[2]);
            if (j)
                check_num(l, json_number_value(json_object_get(j, "coverage")), atof(w[3]), tol);
        } else if (strcmp(w[0], "events") == 0 && n == 3) {
            json_t *f = frame_at(doc, atol(w[1]));
            check_num(l, f ? (double)json_array_size(json_object_get(f, "events")) : -1, atof(w[2]), 0);
        } else if (strcmp(w[0], "event") == 0 && n >= 5) {
            json_t *f = frame_at(doc, atol(w[1]));
            json_t *e = f ? json_array_get(json_object_get(f, "events"), (size_t)atol(w[2])) : NULL;
            const char *keys[] = {"kind", "track", "name", "value"};
            if (!e) {
                fail("no such event: %s%s", l, "");
                continue;
            }
            for (int k = 0; k < 4 && 3 + k < n; k++) {
                const char *got = json_string_value(json_object_get(e, keys[k]));
                if (!got || strcmp(got, w[3 + k]) != 0)
                    fail("event field mismatch: %s (got %s)", l, got ? got : "nothing");
            }
            if (n >= 8)
                check_num(l, json_number_value(json_object_get(e, "time")), atof(w[7]), tol);
        } else if (strcmp(w[0], "ctl") == 0 && n == 4) {
            json_t *f = frame_at(doc, atol(w[1]));
            json_t *c = f ? json_object_get(json_object_get(f, "controls"), w[2]) : NULL;
            if (!c)
                fail("no such control: %s%s", l, "");
            else
                check_num(l, json_number_value(json_object_get(c, "error")), atof(w[3]), tol);
        } else if (strcmp(w[0], "curve") == 0 && (n == 4 || n == 5)) {
            json_t *f = frame_at(doc, atol(w[1]));
            json_t *c = f ? json_object_get(json_object_get(f, "curves"), w[2]) : NULL;
            double cov = n == 5 ? atof(w[4]) : 1.0;
            if (!c) {
                fail("no such curve: %s%s", l, "");
            } else if (json_is_number(c)) { /* printed bare: coverage 1 */
                check_num(l, json_number_value(c), atof(w[3]), tol);
                check_num(l, 1.0, cov, 0);
            } else {
                check_num(l, json_number_value(json_object_get(c, "value")), atof(w[3]), tol);
                check_num(l, json_number_value(json_object_get(c, "coverage")), cov, tol);
                if (json_number_value(json_object_get(c, "coverage")) == 1.0)
                    fail("coverage 1 must print the bare value: %s%s", l, "");
            }
        } else if (strcmp(w[0], "nocurves") == 0 && n == 1) {
            size_t i;
            json_t *f;
            json_array_foreach(json_object_get(doc, "frames"), i, f) if (json_object_get(f, "curves"))
                fail("frame prints \"curves\" without curves in the document%s%s", "", "");
        } else if (strcmp(w[0], "root") == 0 && n == 5) {
            json_t *f = frame_at(doc, atol(w[1]));
            json_t *rm = f ? json_object_get(f, "root_motion") : NULL;
            check_num(l, json_number_value(json_object_get(rm, "dx")), atof(w[2]), tol);
            check_num(l, json_number_value(json_object_get(rm, "dz")), atof(w[3]), tol);
            check_num(l, json_number_value(json_object_get(rm, "yaw")), atof(w[4]), tol);
        } else if (strcmp(w[0], "same") == 0 && n == 4) {
            json_t *a = joint_at(doc, atol(w[1]), w[3]), *b = joint_at(doc, atol(w[2]), w[3]);
            if (!a || !b)
                continue;
            double bt[3], br[4];
            for (int k = 0; k < 3; k++)
                bt[k] = json_number_value(json_array_get(json_object_get(b, "t"), (size_t)k));
            for (int k = 0; k < 4; k++)
                br[k] = json_number_value(json_array_get(json_object_get(b, "r"), (size_t)k));
            check_vec(json_object_get(a, "t"), bt, 3, tol, false, l);
            check_vec(json_object_get(a, "r"), br, 4, tol, true, l);
        } else {
            fail("unknown expectation: %s%s", l, "");
        }
    }
    if (code != want_exit) {
        char g[16], w[16];
        snprintf(g, sizeof g, "%d", code);
        snprintf(w, sizeof w, "%d", want_exit);
        fail("rune exited %s, expected %s", g, w);
        fprintf(stderr, "stderr: %s\n", errtext);
    }
    if (want_exit != 0 && out[0])
        fail("stdout must be empty on bad input, got: %.60s%s", out, "");
    if (want_exit != 0 && (strchr(errtext, '\n') != strrchr(errtext, '\n') || !strchr(errtext, '\n')))
        fail("stderr must be exactly one line: %s%s", errtext, "");
    json_decref(doc);
    free(out);
    free(errtext);
    free(expect);
    if (failures)
        fprintf(stderr, "%s: %d expectation(s) failed\n", argv[2], failures);
    return failures ? 1 : 0;
}
