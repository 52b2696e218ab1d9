/* simulate.c -- see simulate.h: game/simulate.py's hand loop over csrc/engine.c, the bots of csrc/bots.c. */
#include "simulate.h"

#include <string.h>

/* *acc += v unless that overflows int64 (returns 0 then, *acc unchanged). */
static int bd_sim_add(int64_t *acc, int64_t v)
{
    if ((v > 0 && *acc > INT64_MAX - v) || (v < 0 && *acc < INT64_MIN - v))
        return 0;
    *acc += v;
    return 1;
}

int32_t bd_sim_run(bd_eng_table *t, const uint32_t *table, bd_bots *b, int64_t first, int64_t hands,
                   bd_sim_sums *sums, const bd_sim_records *rec)
{
    if (t == NULL || table == NULL || b == NULL || sums == NULL || first < 0 || hands < 0
        || hands > ((int64_t)1 << 40) || first > ((int64_t)1 << 62))
        return BD_ENG_BAD_ARGS;
    if (!bd_eng_check(t))
        return BD_ENG_BAD_STATE;
    const int32_t n = t->cfg.seats;
    if (b->seats != n)
        return BD_ENG_BAD_ARGS;
    if (rec != NULL && rec->rows < hands)
        return BD_ENG_BAD_ARGS;
    for (int64_t h = 0; h < hands; h++) {
        int32_t rc = bd_eng_deal(t, (int32_t)((first + h) % n));
        if (rc == BD_ENG_OK)
            rc = bd_eng_play(t, table, bd_bots_decide, b);
        if (rc != BD_ENG_OK)
            return rc;
        /* The sums first, all or nothing: a refused hand leaves them as they were. */
        bd_sim_sums next = *sums;
        for (int32_t s = 0; s < n; s++) {
            const int64_t w = t->stacks[s] - t->cfg.stacks[s]; /* both within 2**50 (bd_eng_check) */
            /* |w| <= 3037000499 keeps w * w within int64. */
            if (w > 3037000499 || w < -3037000499 || !bd_sim_add(&next.totals[s], w)
                || !bd_sim_add(&next.squares[s], w * w))
                return BD_SIM_OVERFLOW;
        }
        next.showdowns += t->nlive > 1;
        *sums = next;
        if (rec == NULL)
            continue;
        int64_t pot = 0;
        for (int32_t s = 0; s < n; s++)
            pot += t->payouts[s];
        if (rec->net != NULL)
            for (int32_t s = 0; s < n; s++)
                rec->net[h * 6 + s] = t->stacks[s] - t->cfg.stacks[s];
        if (rec->cards != NULL) {
            uint8_t *row = rec->cards + h * 30;
            memset(row, 255, 30);
            for (int32_t s = 0; s < n; s++)
                memcpy(row + 5 * s, t->hands[s], t->hand_len[s]);
        }
        if (rec->folded != NULL)
            for (int32_t s = 0; s < n; s++)
                rec->folded[h * 6 + s] = t->folded[s];
        if (rec->button != NULL)
            rec->button[h] = (uint8_t)t->button;
        if (rec->showdown != NULL)
            rec->showdown[h] = t->nlive > 1;
        if (rec->pot != NULL)
            rec->pot[h] = pot;
    }
    return BD_ENG_OK;
}
