/* Closest-name suggestions: an optimal-string-alignment edit distance over
 * short names, with a cap so that long strings cost bounded work. */
#include "names.h"

#include <stdio.h>
#include <string.h>

/* Names longer than this are compared by their first NAME_CAP bytes. */
#define NAME_CAP 64

static size_t min3(size_t a, size_t b, size_t c) { return a < b ? (a < c ? a : c) : (b < c ? b : c); }

static size_t distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    n = n > NAME_CAP ? NAME_CAP : n;
    m = m > NAME_CAP ? NAME_CAP : m;
    size_t d[NAME_CAP + 1][NAME_CAP + 1];
    for (size_t i = 0; i <= n; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            size_t cost = a[i - 1] != b[j - 1];
            d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < d[i][j])
                d[i][j] = d[i - 2][j - 2] + 1;
        }
    return d[n][m];
}

void rune__match_init(rune__name_match *m, const char *name)
{
    m->name = name ? name : "";
    size_t len = strlen(m->name);
    m->limit = len / 3 > 2 ? len / 3 : 2;
    m->best_distance = m->limit + 1;
    m->best[0] = '\0';
}

void rune__match_offer(rune__name_match *m, const char *candidate)
{
    if (!candidate || strcmp(candidate, m->name) == 0)
        return;
    size_t d = distance(m->name, candidate);
    if (d < m->best_distance) {
        m->best_distance = d;
        snprintf(m->best, sizeof m->best, "%s", candidate);
    }
}

const char *rune__match_hint(const rune__name_match *m, char *buf, size_t size)
{
    if (size)
        buf[0] = '\0';
    if (m->best_distance <= m->limit && size)
        snprintf(buf, size, " (did you mean \"%s\"?)", m->best);
    return buf;
}

const char *rune__did_you_mean(char *buf, size_t size, const char *name, const char *const *candidates,
                               size_t count)
{
    rune__name_match m;
    rune__match_init(&m, name);
    for (size_t i = 0; i < count; i++)
        rune__match_offer(&m, candidates[i]);
    return rune__match_hint(&m, buf, size);
}
