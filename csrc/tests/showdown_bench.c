/* showdown_bench.c -- time bd_showdown_many (6 seats, shares and chips) against bd_eval_many of the same
 * hands, in C alone: issue 13's "a showdown costs at most 2x evaluating its six hands", without Python's
 * call overhead or the allocation of the outputs.
 *
 *   cc -std=c11 -O3 -Icsrc -o /tmp/showdown_bench csrc/tests/showdown_bench.c csrc/[a-z]*.c -lpthread
 *   BADACEY_FAST_ISA=avx2 /tmp/showdown_bench badacey_fast/_data/badacey.tbl [ROWS] [REPEATS]
 *
 * ROWS random 6-seat deals (default 32,768: 1.5 MB of shares, beyond L2; .ci/isa-bench times 1,000,000
 * from Python, badacey bench's showdown-vs-hands), each timing the best of REPEATS (default 60: on a shared machine the best run is the one
 * the other tenants left alone).  Prints the path (0 scalar, 1 avx2, 2 avx512), ns per row of
 * evaluating the six hands (one bd_eval_many over all rows' hands), of the shares and of the chips, and
 * their ratios.  The table file is read as the build writes it: a 32-byte header, then the entries
 * little-endian (x86-64 and aarch64 alike); nothing is checked here (csrc/tests/golden_test.c does).
 * Exit status 0, or 2 when the table cannot be read.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../badacey.h"
#include "../showdown.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* xorshift64: the same deals on every run and machine. */
static uint64_t next_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s TABLE_FILE [ROWS] [REPEATS]\n", argv[0]);
        return 2;
    }
    int64_t rows = argc > 2 ? atoll(argv[2]) : 32768;
    int repeats = argc > 3 ? atoi(argv[3]) : 60;
    if (rows < 1 || repeats < 1) {
        fprintf(stderr, "ROWS and REPEATS must be positive\n");
        return 2;
    }
    uint32_t *table = malloc((size_t)BD_TABLE_ENTRIES * 4);
    FILE *f = fopen(argv[1], "rb");
    if (!table || !f || fseek(f, 32, SEEK_SET) != 0 ||
        fread(table, 4, BD_TABLE_ENTRIES, f) != (size_t)BD_TABLE_ENTRIES) {
        fprintf(stderr, "%s: cannot read a table\n", argv[1]);
        return 2;
    }
    fclose(f);
    uint8_t *hands = malloc((size_t)rows * 30);
    int64_t *pot = malloc((size_t)rows * 8), *button = malloc((size_t)rows * 8), *chips = malloc((size_t)rows * 48);
    double *shares = malloc((size_t)rows * 48);
    uint16_t *low = malloc((size_t)rows * 12), *badugi = malloc((size_t)rows * 12);
    if (!hands || !pot || !button || !chips || !shares || !low || !badugi) {
        fprintf(stderr, "out of memory\n");
        return 2;
    }
    uint64_t state = 88172645463325252u;
    for (int64_t i = 0; i < rows; i++) {
        uint8_t deck[52];
        for (int k = 0; k < 52; k++)
            deck[k] = (uint8_t)k;
        for (int k = 0; k < 30; k++) { /* 30 distinct cards: a partial Fisher-Yates shuffle */
            int j = k + (int)(next_random(&state) % (uint64_t)(52 - k));
            uint8_t t = deck[k];
            deck[k] = deck[j];
            deck[j] = t;
            hands[i * 30 + k] = deck[k];
        }
        pot[i] = (int64_t)(next_random(&state) % 1000);
        button[i] = (int64_t)(next_random(&state) % 6);
    }
    double best_eval = 1e30, best_shares = 1e30, best_chips = 1e30;
    int32_t code;
    for (int r = 0; r < repeats; r++) { /* interleaved, so that a disturbance hits all three alike */
        double t = now();
        bd_eval_many(table, hands, rows * 6, 5, 1, low, badugi, 1);
        t = now() - t;
        best_eval = t < best_eval ? t : best_eval;
        t = now();
        bd_showdown_many(table, hands, NULL, rows, 6, NULL, NULL, 0, shares, NULL, NULL, NULL, NULL, &code);
        t = now() - t;
        best_shares = t < best_shares ? t : best_shares;
        t = now();
        bd_showdown_many(table, hands, NULL, rows, 6, pot, button, 0, NULL, chips, NULL, NULL, NULL, &code);
        t = now() - t;
        best_chips = t < best_chips ? t : best_chips;
    }
    double six = best_eval / (double)rows * 1e9, sh = best_shares / (double)rows * 1e9;
    double ch = best_chips / (double)rows * 1e9;
    printf("path %d: six hands %.1f ns | shares %.1f ns a row = %.2fx | chips %.1f ns a row = %.2fx\n",
           bd_simd_level(), six, sh, sh / six, ch, ch / six);
    return 0;
}
