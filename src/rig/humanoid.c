/* Finding a humanoid in a rig (humanoid_internal.h). Topology decides and
 * names confirm: names alone cannot tell Motion Analysis's LeftShoulder
 * (an upper arm) from CMU's (a clavicle), or Poser's "hip" (the hips)
 * from Motion Analysis's LeftHip (a thigh); the shape of the hierarchy
 * can. The legs are two mirrored chains (the same joint count and depth,
 * the same length, apart) branching at the hips or a pelvis just below
 * them, two mirrored arms branching well above, up the spine; the neck
 * and head go on from the arms' branch. Along a limb the two longest consecutive bones are the thigh
 * and shin (upper arm and forearm); the joint before an upper arm is its
 * clavicle, the joints after a shin the foot and toes. */
#include "humanoid_internal.h"
#include "rig_internal.h"
#include "../base/alloc.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

static const char *const bone_names[HB_COUNT] = {
    "hips", "spine", "chest", "neck", "head", "left_clavicle", "right_clavicle", "left_upper_arm",
    "right_upper_arm", "left_forearm", "right_forearm", "left_hand", "right_hand", "left_thigh", "right_thigh",
    "left_shin", "right_shin", "left_foot", "right_foot", "left_toes", "right_toes"};

const char *rune__humanoid_bone_name(humanoid_bone bone)
{
    return (unsigned)bone < HB_COUNT ? bone_names[bone] : "?";
}

/* The hierarchy as child lists, with each joint's subtree size, the
 * joints of its longest chain down (itself included) and rest position. */
typedef struct tree {
    const rune_rig *rig;
    size_t n;
    int32_t *first_child, *next_sibling;
    size_t *size, *height;
    const rune_mat4 *rest;
} tree;

static rune_vec3 pos(const tree *t, int32_t j)
{
    const float *m = t->rest[j].m;
    return rune_v3(m[12], m[13], m[14]);
}

static float dist(rune_vec3 a, rune_vec3 b)
{
    rune_vec3 d = rune_v3_sub(a, b);
    return sqrtf(rune_v3_dot(d, d));
}

static void tree_build(tree *t)
{
    for (size_t j = 0; j < t->n; j++)
        t->first_child[j] = t->next_sibling[j] = -1, t->size[j] = 1, t->height[j] = 1;
    for (size_t j = t->n; j-- > 0;) { /* children after parents: backwards keeps sibling order */
        int32_t p = rune_rig_parent(t->rig, j);
        if (p < 0)
            continue;
        t->next_sibling[j] = t->first_child[p];
        t->first_child[p] = (int32_t)j;
        t->size[p] += t->size[j];
        if (t->height[j] + 1 > t->height[p])
            t->height[p] = t->height[j] + 1;
    }
}

/* The main chain down from j: the child with the largest subtree (the
 * taller on a tie) each step. Returns its length (at most cap). */
static size_t main_chain(const tree *t, int32_t j, int32_t *out, size_t cap)
{
    size_t n = 0;
    while (j >= 0 && n < cap) {
        out[n++] = j;
        int32_t best = -1;
        for (int32_t c = t->first_child[j]; c >= 0; c = t->next_sibling[c])
            if (best < 0 || t->size[c] > t->size[best] ||
                (t->size[c] == t->size[best] && t->height[c] > t->height[best]))
                best = c;
        j = best;
    }
    return n;
}

enum { CHAIN_MAX = 64 };

static float chain_length(const tree *t, int32_t j)
{
    int32_t c[CHAIN_MAX];
    size_t n = main_chain(t, j, c, CHAIN_MAX);
    float len = 0.0f;
    for (size_t i = 1; i < n; i++)
        len += dist(pos(t, c[i]), pos(t, c[i - 1]));
    return len;
}

/* Whether children a and b of p are mirror images: limbs of the same
 * shape, of at least three joints, apart. */
static bool mirrored(const tree *t, int32_t p, int32_t a, int32_t b)
{
    size_t sa = t->size[a], sb = t->size[b], big = sa > sb ? sa : sb;
    if ((sa > sb ? sa - sb : sb - sa) > (big / 4 > 1 ? big / 4 : 1) || t->height[a] < 3 || t->height[b] < 3 ||
        (t->height[a] > t->height[b] ? t->height[a] - t->height[b] : t->height[b] - t->height[a]) > 1)
        return false;
    float la = chain_length(t, a), lb = chain_length(t, b);
    if (!(la > 0.0f) || !(lb > 0.0f) || fabsf(la - lb) > 0.3f * fmaxf(la, lb))
        return false;
    /* apart, the third joints (knees or ankles, elbows or wrists) at least
     * 8 % of their reach from each other -- legs standing feet together
     * still are -- and mirror images: b's first joints reflected across
     * the plane halfway between those land on a's. Not the chains' ends:
     * exporters leave end bones of any length. */
    int32_t ca[3], cb[3];
    size_t na = main_chain(t, a, ca, 3), nb = main_chain(t, b, cb, 3);
    rune_vec3 ka = pos(t, ca[na - 1]), kb = pos(t, cb[nb - 1]);
    float reach = fmaxf(dist(ka, pos(t, p)), dist(kb, pos(t, p))), apart = dist(ka, kb);
    if (!(apart > 0.08f * reach))
        return false;
    rune_vec3 n = rune_v3_scale(rune_v3_sub(ka, kb), 1.0f / apart), mid = rune_v3_scale(rune_v3_add(ka, kb), 0.5f);
    for (size_t i = 0; i + 1 < na; i++) {
        rune_vec3 q = pos(t, cb[i]);
        rune_vec3 mirror = rune_v3_sub(q, rune_v3_scale(n, 2.0f * rune_v3_dot(rune_v3_sub(q, mid), n)));
        if (dist(mirror, pos(t, ca[i])) > 0.25f * reach)
            return false;
    }
    return true;
}

typedef struct limb_pair {
    int32_t at, a, b; /* branch point and the two limbs' first joints */
} limb_pair;

/* The best mirrored pair of children of each joint (score 0: none).
 * Only joints of at most MAX_BRANCH children are looked at: a hips or a
 * chest has three to five, and a joint of thousands would cost pairs by
 * the million. */
enum { MAX_BRANCH = 8, MAX_SPINE_DEPTH = 32 };

static void find_pairs(const tree *t, limb_pair *pair, size_t *score)
{
    for (size_t p = 0; p < t->n; p++) {
        score[p] = 0;
        size_t children = 0;
        for (int32_t c = t->first_child[p]; c >= 0; c = t->next_sibling[c])
            children++;
        if (children < 2 || children > MAX_BRANCH)
            continue;
        for (int32_t a = t->first_child[p]; a >= 0; a = t->next_sibling[a])
            for (int32_t b = t->next_sibling[a]; b >= 0; b = t->next_sibling[b])
                if (t->size[a] + t->size[b] > score[p] && mirrored(t, (int32_t)p, a, b)) {
                    score[p] = t->size[a] + t->size[b];
                    pair[p] = (limb_pair){(int32_t)p, a, b};
                }
    }
}

/* Whether `above` is a strict ancestor of j, at most `levels` up. */
static bool below(const tree *t, int32_t j, int32_t above, int levels)
{
    for (int up = 0; j >= 0 && up <= levels; up++)
        if ((j = rune_rig_parent(t->rig, (size_t)j)) == above)
            return true;
    return false;
}

/* A limb's third joint (a knee or an ankle, an elbow or a wrist): where
 * a pair of limbs points. */
static rune_vec3 third(const tree *t, int32_t j)
{
    int32_t c[3];
    return pos(t, c[main_chain(t, j, c, 3) - 1]);
}

/* Whether legs (their pair at l) and arms (at a) make a body standing
 * on the legs: the arms' roots well above the legs' branch along the
 * legs' own line. A quadruped's forelegs hang level with its hind legs. */
static bool upright(const tree *t, const limb_pair *legs, const limb_pair *arms)
{
    rune_vec3 at = pos(t, legs->at);
    rune_vec3 down = rune_v3_sub(rune_v3_scale(rune_v3_add(third(t, legs->a), third(t, legs->b)), 0.5f), at);
    rune_vec3 shoulders = rune_v3_scale(rune_v3_add(pos(t, arms->a), pos(t, arms->b)), 0.5f);
    float len = sqrtf(rune_v3_dot(down, down));
    return len > 0.0f && -rune_v3_dot(rune_v3_sub(shoulders, at), down) / len > 0.2f * len;
}

/* The legs and the arms: two pairs, the arms' (at most MAX_SPINE_DEPTH
 * joints below the hips) outside the legs, the legs' branch the hips
 * or at most HIP_DEPTH joints below them (a pelvis of its own beside the
 * spine), upright; the largest such. *hips: the joint both hang from. */
enum { HIP_DEPTH = 3, LIMB_DEPTH = 2 * CHAIN_MAX, MAX_CANDIDATES = 64 };

static bool find_limbs(const tree *t, const limb_pair *pair, const size_t *score, limb_pair *legs, limb_pair *arms,
                       int32_t *hips)
{
    /* the candidates: the MAX_CANDIDATES largest pairs (limbs are the
     * largest; a rig of thousands of forks must not cost millions) */
    int32_t cand[MAX_CANDIDATES];
    size_t k = 0;
    for (size_t j = 0; j < t->n; j++) {
        if (!score[j])
            continue;
        size_t at;
        if (k < MAX_CANDIDATES)
            at = k++;
        else if (score[cand[MAX_CANDIDATES - 1]] >= score[j])
            continue;
        else
            at = MAX_CANDIDATES - 1;
        for (; at > 0 && score[cand[at - 1]] < score[j]; at--)
            cand[at] = cand[at - 1];
        cand[at] = (int32_t)j;
    }
    size_t best = 0;
    for (size_t i = 0; i < k; i++) {
        int32_t a = cand[i];
        for (size_t m = 0; m < k; m++) {
            int32_t l = cand[m];
            if (l == a || score[a] + score[l] <= best || below(t, l, a, LIMB_DEPTH))
                continue;
            /* the hips: l itself or one of its HIP_DEPTH ancestors, above the arms */
            int32_t c = l;
            for (int up = 0; c >= 0 && up < HIP_DEPTH && !below(t, a, c, MAX_SPINE_DEPTH); up++)
                c = rune_rig_parent(t->rig, (size_t)c);
            if (c < 0 || !below(t, a, c, MAX_SPINE_DEPTH))
                continue;
            /* the arms must not hang from either leg */
            if ((c == l && (below(t, a, pair[l].a, LIMB_DEPTH) || a == pair[l].a || below(t, a, pair[l].b, LIMB_DEPTH) ||
                            a == pair[l].b)) ||
                !upright(t, &pair[l], &pair[a]))
                continue;
            best = score[a] + score[l];
            *legs = pair[l];
            *arms = pair[a];
            *hips = c;
        }
    }
    return best > 0;
}

/* The side a joint's name gives: 1 left, 2 right, 0 none. */
static int name_side(const char *part)
{
    char buf[128];
    rune_retarget_normalize(part, buf, sizeof buf);
    if (strncmp(buf, "left", 4) == 0)
        return 1;
    if (strncmp(buf, "right", 5) == 0)
        return 2;
    const char *colon = strrchr(part, ':');
    const char *p = colon ? colon + 1 : part;
    if ((p[0] == 'l' || p[0] == 'r') && isupper((unsigned char)p[1])) /* Poser's lThigh, rShldr */
        return p[0] == 'l' ? 1 : 2;
    return 0;
}

static int chain_side(const tree *t, int32_t j)
{
    int32_t c[CHAIN_MAX];
    size_t n = main_chain(t, j, c, CHAIN_MAX);
    for (size_t i = 0; i < n && i < 4; i++) {
        int s = name_side(rune_rig_part(t->rig, (size_t)c[i]));
        if (s)
            return s;
    }
    return 0;
}

/* Orders a pair left first: by names when they say opposite sides, else
 * the limb reaching farther along +X (left in glTF's, Mixamo's, CMU's and
 * Blender's conventions). */
static void order_sides(const tree *t, limb_pair *pair)
{
    int sa = chain_side(t, pair->a), sb = chain_side(t, pair->b);
    bool swap;
    if (sa && sb && sa != sb) {
        swap = sa == 2;
    } else {
        int32_t ca[CHAIN_MAX], cb[CHAIN_MAX];
        float xa = pos(t, ca[main_chain(t, pair->a, ca, CHAIN_MAX) - 1]).x;
        float xb = pos(t, cb[main_chain(t, pair->b, cb, CHAIN_MAX) - 1]).x;
        swap = xb > xa;
    }
    if (swap) {
        int32_t x = pair->a;
        pair->a = pair->b;
        pair->b = x;
    }
}

/* The limb's bones from its first joint: the two longest consecutive
 * bones make the upper and lower limb; first is the joint starting them.
 * Returns the main chain's length (0: too short). */
static size_t limb(const tree *t, int32_t j, int32_t *chain, size_t *first)
{
    size_t n = main_chain(t, j, chain, CHAIN_MAX);
    float best = -1.0f;
    for (size_t i = 0; i + 2 < n; i++) {
        float s = fminf(dist(pos(t, chain[i + 1]), pos(t, chain[i])), dist(pos(t, chain[i + 2]), pos(t, chain[i + 1])));
        if (s > best)
            best = s, *first = i;
    }
    return best > 0.0f ? n : 0;
}

static bool has_word(const char *part, const char *const *words)
{
    char buf[128];
    rune_retarget_normalize(part, buf, sizeof buf);
    for (; *words; words++)
        if (strstr(buf, *words))
            return true;
    return false;
}

/* Where along an arm's chain the upper arm starts: two joints above the
 * hand, the hand being the first joint named for one (hand, wrist), else
 * the first where fingers branch (two children of two joints or more),
 * else `longest` (the two longest consecutive bones). The bones' lengths
 * alone mislead: CMU's clavicle is longer than its forearm. */
static size_t upper_arm(const tree *t, const int32_t *chain, size_t n, size_t longest)
{
    static const char *const hand[] = {"hand", "wrist", NULL},
                             *const finger[] = {"finger", "thumb", "index", "middle", "ring", "pinky", "little", NULL};
    for (size_t i = 2; i < n; i++) {
        const char *part = rune_rig_part(t->rig, (size_t)chain[i]);
        if (has_word(part, hand) && !has_word(part, finger))
            return i - 2;
    }
    for (size_t i = 2; i < n; i++) {
        size_t limbs = 0;
        for (int32_t c = t->first_child[chain[i]]; c >= 0; c = t->next_sibling[c])
            limbs += t->height[c] >= 2;
        if (limbs >= 2)
            return i - 2;
    }
    return longest;
}

/* The head along the neck's chain: a joint named for it (not an end
 * site), else the last joint with children. */
static int32_t find_head(const tree *t, const int32_t *chain, size_t n)
{
    static const char *const head[] = {"head", NULL}, *const end[] = {"end", "top", "nub", "site", NULL};
    for (size_t i = 0; i < n; i++)
        if (has_word(rune_rig_part(t->rig, (size_t)chain[i]), head) &&
            !has_word(rune_rig_part(t->rig, (size_t)chain[i]), end))
            return chain[i];
    if (n >= 2 && t->first_child[chain[n - 1]] < 0)
        return chain[n - 2];
    return chain[n - 1];
}

/* How many found bones carry a name of their kind. */
static size_t confirm(const rune_rig *rig, const rune_humanoid *h)
{
    static const char *const hips[] = {"hip", "pelvis", "root", NULL}, *const spine[] = {"spine", "chest", "abdomen", "back", "torso", NULL},
                             *const neck[] = {"neck", NULL}, *const head[] = {"head", NULL},
                             *const clav[] = {"shoulder", "collar", "clavicle", NULL},
                             *const upper[] = {"arm", "shoulder", "shldr", NULL},
                             *const fore[] = {"forearm", "elbow", "lowerarm", NULL}, *const hand[] = {"hand", "wrist", NULL},
                             *const thigh[] = {"upleg", "thigh", "hip", "upperleg", NULL},
                             *const shin[] = {"leg", "shin", "calf", "knee", NULL},
                             *const foot[] = {"foot", "ankle", NULL}, *const toes[] = {"toe", "ball", NULL};
    const char *const *words[HB_COUNT] = {hips, spine, spine, neck, head, clav, clav, upper, upper, fore, fore,
                                          hand, hand, thigh, thigh, shin, shin, foot, foot, toes, toes};
    size_t n = 0;
    for (int b = 0; b < HB_COUNT; b++)
        n += h->bone[b] >= 0 && has_word(rune_rig_part(rig, (size_t)h->bone[b]), words[b]);
    return n;
}

static rune_vec3 unit(rune_vec3 v)
{
    float n = sqrtf(rune_v3_dot(v, v));
    return n > 0.0f ? rune_v3_scale(v, 1.0f / n) : v;
}

/* The model axis (+-X, Y or Z) within 30 degrees of a unit vector, else
 * the vector: a body leaning a little at rest (a head ahead of the feet)
 * stands along its model's up axis all the same, and heights measured
 * along a tilted axis would drift with every metre travelled. */
static rune_vec3 snap(rune_vec3 v)
{
    const float c[3] = {v.x, v.y, v.z};
    for (int k = 0; k < 3; k++)
        if (fabsf(c[k]) >= 0.866f)
            return rune_v3(k == 0 ? copysignf(1.0f, c[k]) : 0.0f, k == 1 ? copysignf(1.0f, c[k]) : 0.0f,
                           k == 2 ? copysignf(1.0f, c[k]) : 0.0f);
    return v;
}

/* Up from the feet to the head (snapped to a model axis), left from the
 * right thigh to the left. */
static void find_frame(const tree *t, rune_humanoid *h)
{
    const int32_t *b = h->bone;
    int32_t top = b[HB_HEAD] >= 0 ? b[HB_HEAD] : (b[HB_NECK] >= 0 ? b[HB_NECK] : b[HB_CHEST]);
    rune_vec3 feet = rune_v3_scale(rune_v3_add(pos(t, b[HB_FOOT_L]), pos(t, b[HB_FOOT_R])), 0.5f);
    h->up = snap(unit(rune_v3_sub(pos(t, top), feet)));
    rune_vec3 side = rune_v3_sub(pos(t, b[HB_THIGH_L]), pos(t, b[HB_THIGH_R]));
    side = rune_v3_sub(side, rune_v3_scale(h->up, rune_v3_dot(side, h->up)));
    if (rune_v3_dot(side, side) < 1e-12f * rune_v3_dot(feet, feet) + 1e-30f)
        side = rune_v3_sub(pos(t, b[HB_UPPER_ARM_L]), pos(t, b[HB_UPPER_ARM_R]));
    h->left = unit(rune_v3_sub(side, rune_v3_scale(h->up, rune_v3_dot(side, h->up))));
    h->forward = unit(rune_v3_cross(h->left, h->up));
}

static bool find(const tree *t, const limb_pair *pair, const size_t *score, rune_humanoid *h)
{
    limb_pair legs, arms;
    int32_t hips;
    if (!find_limbs(t, pair, score, &legs, &arms, &hips))
        return false;
    order_sides(t, &legs);
    order_sides(t, &arms);
    int32_t *b = h->bone, chain[CHAIN_MAX];
    size_t first = 0, n;
    for (int side = 0; side < 2; side++) {
        if (!(n = limb(t, side ? legs.b : legs.a, chain, &first)))
            return false;
        b[HB_THIGH_L + side] = chain[first], b[HB_SHIN_L + side] = chain[first + 1];
        b[HB_FOOT_L + side] = chain[first + 2], b[HB_TOES_L + side] = first + 3 < n ? chain[first + 3] : -1;
        if (!(n = limb(t, side ? arms.b : arms.a, chain, &first)))
            return false;
        first = upper_arm(t, chain, n, first);
        b[HB_UPPER_ARM_L + side] = chain[first], b[HB_FOREARM_L + side] = chain[first + 1];
        b[HB_HAND_L + side] = chain[first + 2], b[HB_CLAVICLE_L + side] = first >= 1 ? chain[first - 1] : -1;
    }
    b[HB_HIPS] = hips, b[HB_CHEST] = arms.at;
    /* the spine: from below the chest down to the hips, then in order up */
    int32_t path[HUMANOID_MAX_SPINE + 1];
    size_t k = 0;
    for (int32_t j = rune_rig_parent(t->rig, (size_t)arms.at); j >= 0 && j != hips; j = rune_rig_parent(t->rig, (size_t)j))
        if (k < HUMANOID_MAX_SPINE)
            path[k++] = j;
    for (size_t i = 0; i < k; i++)
        h->spine[i] = path[k - 1 - i];
    h->spine_count = k;
    b[HB_SPINE] = k ? h->spine[0] : -1;
    /* the neck: the chest's tallest child that is not an arm */
    int32_t neck = -1;
    for (int32_t c = t->first_child[arms.at]; c >= 0; c = t->next_sibling[c])
        if (c != arms.a && c != arms.b && (neck < 0 || t->height[c] > t->height[neck]))
            neck = c;
    if (neck >= 0) {
        n = main_chain(t, neck, chain, CHAIN_MAX);
        b[HB_NECK] = n >= 2 ? neck : -1;
        b[HB_HEAD] = find_head(t, chain, n);
    }
    for (int i = 0; i < HB_COUNT; i++)
        h->found += b[i] >= 0;
    h->confirmed = confirm(t->rig, h);
    find_frame(t, h);
    return true;
}

static void clear(rune_humanoid *h)
{
    memset(h, 0, sizeof *h);
    for (int i = 0; i < HB_COUNT; i++)
        h->bone[i] = -1;
}

rune_status rune__humanoid_find(const rune_rig *rig, const rune_mat4 *rest, const rune_allocator *alloc,
                                rune_humanoid *h, bool *found)
{
    clear(h);
    *found = false;
    size_t n = rune_rig_joint_count(rig), m = n ? n : 1;
    tree t = {rig, n, rune__calloc(alloc, m, sizeof(int32_t)), rune__calloc(alloc, m, sizeof(int32_t)),
              rune__calloc(alloc, m, sizeof(size_t)), rune__calloc(alloc, m, sizeof(size_t)), rest};
    limb_pair *pair = rune__calloc(alloc, m, sizeof *pair);
    size_t *score = rune__calloc(alloc, m, sizeof *score);
    bool fine = t.first_child && t.next_sibling && t.size && t.height && pair && score;
    if (fine) {
        tree_build(&t);
        find_pairs(&t, pair, score);
        *found = find(&t, pair, score, h);
    }
    rune__free(alloc, t.first_child, m, sizeof(int32_t));
    rune__free(alloc, t.next_sibling, m, sizeof(int32_t));
    rune__free(alloc, t.size, m, sizeof(size_t));
    rune__free(alloc, t.height, m, sizeof(size_t));
    rune__free(alloc, pair, m, sizeof *pair);
    rune__free(alloc, score, m, sizeof *score);
    if (!*found)
        clear(h);
    return fine ? RUNE_OK : RUNE_E_NOMEM;
}
