/* observe.c -- see observe.h.  The arithmetic mirrors the Python twin (badacey_fast/kernel/_py.py) step by
 * step: chips times (1.0 / unit) in double, then rounded once to float, so both give the same bits. */
#include "observe.h"

#include <string.h>

/* Offsets of the vector's parts (the table in badacey_fast/envs/encoding.py). */
#define OBS_SLOTS 52
#define OBS_SEATS 137
#define OBS_POS 142
#define OBS_PHASE 148
#define OBS_STREET 150
#define OBS_MONEY 154
#define OBS_NBETS 157
#define OBS_PER_SEAT 163

/* (count + 1) / 6 for a discard count, as the Python twin writes it: (count + 1) * 0.16666667. */
#define OBS_DRAW_SCALE 0.16666667

static int bd_in(int64_t v, int64_t lo, int64_t hi)
{
    return v >= lo && v <= hi;
}

/* Checks one row starting at row[0], with `left` ints available; returns its length, or -1 if bad. */
static int64_t bd_obs_row_len(const int64_t *row, int64_t left)
{
    if (left < BD_OBS_HEAD)
        return -1;
    const int64_t n = row[0], d = row[10], k = row[11];
    if (!bd_in(n, 2, 6) || !bd_in(row[1], 0, n - 1) || !bd_in(row[2], 0, n - 1) || !bd_in(row[3], 0, 2)
        || !bd_in(row[4], 0, 3) || !bd_in(row[5], -1, n - 1) || !bd_in(row[6], 0, BD_OBS_CHIPS_MAX)
        || !bd_in(row[7], 0, BD_OBS_CHIPS_MAX) || !bd_in(row[8], 0, BD_OBS_CHIPS_MAX)
        || !bd_in(row[9], 1, BD_OBS_CHIPS_MAX) || !bd_in(d, 0, 3) || !bd_in(k, 0, 5))
        return -1;
    const int64_t len = BD_OBS_HEAD + (5 + d) * n + k;
    if (len > left)
        return -1;
    const int64_t *seats = row + BD_OBS_HEAD;
    for (int64_t j = 0; j < 3 * n; j++) /* stacks, bets, chips in the pot */
        if (!bd_in(seats[j], 0, BD_OBS_CHIPS_MAX))
            return -1;
    for (int64_t j = 3 * n; j < 5 * n; j++) /* folded, still to act */
        if (!bd_in(seats[j], 0, 1))
            return -1;
    for (int64_t j = 5 * n; j < (5 + d) * n; j++) /* discard counts */
        if (!bd_in(seats[j], -1, 5))
            return -1;
    uint64_t seen = 0;
    for (int64_t j = (5 + d) * n; j < (5 + d) * n + k; j++) {
        if (!bd_in(seats[j], 0, 51) || (seen >> seats[j] & 1u))
            return -1;
        seen |= (uint64_t)1 << seats[j];
    }
    return len;
}

/* Writes the vector of one checked row. */
static void bd_obs_fill(const int64_t *row, float *v)
{
    const int64_t n = row[0], seat = row[1], phase = row[3], d = row[10], k = row[11];
    const double inv = 1.0 / (double)row[9];
    const int64_t *stacks = row + BD_OBS_HEAD, *sbet = stacks + n, *contrib = sbet + n, *folded = contrib + n;
    const int64_t *pending = folded + n, *draws = pending + n, *cards = draws + d * n;
    memset(v, 0, BD_OBS_SIZE * sizeof *v);

    /* Own cards: multi-hot, then slot by slot in id order (insertion sort of at most 5). */
    int64_t sorted[5];
    for (int64_t i = 0; i < k; i++) {
        int64_t c = cards[i], j = i;
        for (; j > 0 && sorted[j - 1] > c; j--)
            sorted[j] = sorted[j - 1];
        sorted[j] = c;
    }
    for (int64_t i = 0; i < k; i++) {
        const int64_t c = sorted[i];
        v[c] = 1.0f;
        v[OBS_SLOTS + 17 * i + c / 4] = 1.0f;
        v[OBS_SLOTS + 17 * i + 13 + c % 4] = 1.0f;
    }

    v[OBS_SEATS + n - 2] = 1.0f;
    v[OBS_POS + (seat - row[2] + n) % n] = 1.0f;
    if (phase == 0) {
        v[OBS_PHASE] = 1.0f;
        if (seat == row[5]) {
            const int64_t lv = row[6] - sbet[seat], st = stacks[seat];
            v[OBS_MONEY] = (float)((double)(lv < st ? lv : st) * inv);
        }
        v[OBS_NBETS + (row[7] < 5 ? row[7] : 5)] = 1.0f;
    } else {
        if (phase == 1)
            v[OBS_PHASE + 1] = 1.0f;
        v[OBS_NBETS] = 1.0f;
    }
    v[OBS_STREET + row[4]] = 1.0f;
    int64_t pot = 0;
    for (int64_t j = 0; j < n; j++)
        pot += contrib[j];
    v[OBS_MONEY + 1] = (float)((double)pot * inv);
    v[OBS_MONEY + 2] = (float)((double)row[8] * inv);

    /* Per relative seat r: seat (seat + r) mod n, 10 values each. */
    float *b = v + OBS_PER_SEAT;
    for (int64_t r = 0; r < n; r++, b += 10) {
        const int64_t j = (seat + r) % n, st = stacks[j];
        b[0] = 1.0f;
        if (folded[j])
            b[1] = 1.0f;
        else if (st == 0)
            b[2] = 1.0f;
        b[3] = (float)((double)st * inv);
        b[4] = (float)((double)sbet[j] * inv);
        b[5] = (float)((double)contrib[j] * inv);
        for (int64_t t = 0; t < d; t++)
            b[6 + t] = (float)((double)(draws[t * n + j] + 1) * OBS_DRAW_SCALE);
        if (phase == 0 && pending[j])
            b[9] = 1.0f;
    }
}

int64_t bd_observe_many(const uint8_t *rows, int64_t rows_bytes, int64_t count, float *out, int64_t out_len)
{
    if (count < 0 || rows_bytes < 0 || rows_bytes % 8 != 0 || out_len < 0 || count > out_len / BD_OBS_SIZE)
        return BD_OBS_BAD_ARGS;
    if ((count > 0 && out == NULL) || (rows_bytes > 0 && rows == NULL))
        return BD_OBS_BAD_ARGS;
    const int64_t total = rows_bytes / 8;
    int64_t pos = 0;
    for (int64_t i = 0; i < count; i++) {
        /* A row is copied out first: the bytes need no alignment, and no read goes past rows_bytes. */
        int64_t row[BD_OBS_ROW_MAX];
        const int64_t avail = total - pos < BD_OBS_ROW_MAX ? total - pos : BD_OBS_ROW_MAX;
        if (avail > 0)
            memcpy(row, rows + pos * 8, (size_t)avail * sizeof row[0]);
        const int64_t len = bd_obs_row_len(row, avail);
        if (len < 0)
            return i;
        bd_obs_fill(row, out + i * BD_OBS_SIZE);
        pos += len;
    }
    return pos == total ? -1 : BD_OBS_BAD_ARGS;
}
