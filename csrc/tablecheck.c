/* tablecheck.c -- see tablecheck.h. */
#include "tablecheck.h"

#include "badacey.h"

#define BD_LOW_RANKS_A5 6175u
#define BD_LOW_RANKS_27 7462u
#define BD_BADUGI_RANKS 1092u
/* Entries scanned per block: the inner loop ORs flags without branching (so it vectorises); only a
 * block with a bad entry is scanned again for its index. */
#define BD_CHECK_BLOCK 4096

/* Unsigned wrap-around makes rank 0 as out of range as a rank past the scale. */
static inline uint32_t bd_five_bad(uint32_t entry, uint32_t low_ranks)
{
    return ((entry & 0xFFFFu) - 1u >= low_ranks) | ((entry >> 16) - 1u >= BD_BADUGI_RANKS);
}

static inline int bd_mask_bad(uint32_t mask, uint32_t entry)
{
    int bits = __builtin_popcount(mask);
    if (bits >= 1 && bits <= 4)
        return (entry & 0xFFFFu) != 0 || (entry >> 16) - 1u >= BD_BADUGI_RANKS;
    return entry != 0;
}

int64_t bd_table_first_bad(const uint32_t *table, int game)
{
    if (game != 0 && game != 1)
        return -2;
    const uint32_t low_ranks = game ? BD_LOW_RANKS_27 : BD_LOW_RANKS_A5;
    for (int64_t start = 0; start < BD_HANDS5; start += BD_CHECK_BLOCK) {
        int64_t end = start + BD_CHECK_BLOCK < BD_HANDS5 ? start + BD_CHECK_BLOCK : BD_HANDS5;
        uint32_t bad = 0;
        for (int64_t i = start; i < end; i++)
            bad |= bd_five_bad(table[i], low_ranks);
        if (bad) {
            for (int64_t i = start; i < end; i++)
                if (bd_five_bad(table[i], low_ranks))
                    return i;
        }
    }
    for (uint32_t mask = 0; mask < BD_BADUGI_MASKS; mask++)
        if (bd_mask_bad(mask, table[BD_HANDS5 + mask]))
            return BD_HANDS5 + (int64_t)mask;
    return -1;
}
