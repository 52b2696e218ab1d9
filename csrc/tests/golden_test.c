/* golden_test.c -- check a build's lookup tables and kernel against golden answers, with no Python.
 *
 *   golden_test TABLE_DIR GOLDEN_FILE
 *
 * Loads TABLE_DIR/badacey.tbl and badeucy.tbl (header, size, CRC-32 and every entry's range, as the
 * Python loader does), then checks every line of GOLDEN_FILE (csrc/tests/make_golden.py wrote it from the
 * Python reference; its docstring gives the format) through the kernel: bd_eval5 one hand at a time,
 * bd_eval_many on each game's hands as one contiguous batch (the vector path BADACEY_FAST_ISA selects),
 * bd_badugi_rank / bd_badugi_many / bd_badugi4_many for 1..4 cards, bd_showdown_many (and
 * bd_showdown_columns, its column layout) on each kind of showdown row as one batch (whole blocks of 16
 * rows, so the AVX-512 pass runs where selected).
 * Exit status 0 all good, 1 a mismatch, 2 usage or unreadable files, 3 BADACEY_FAST_ISA refused
 * (bd_isa_check's message on stderr).  Built and run by csrc/tests/run (any platform, any compiler).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../badacey.h"
#include "../showdown.h"
#include "../tablecheck.h"

#define MAX_ROWS 4096
#define SD_ROWS 256

/* Showdown rows of one game, seat count (2 or 6) and odd-chip rule, settled as one batch. */
struct group {
    int32_t seats;
    int64_t n;
    long line[SD_ROWS];
    int64_t pot[SD_ROWS], button[SD_ROWS], want[SD_ROWS * 6], chips[SD_ROWS * 6];
    uint8_t live[SD_ROWS * 6], cards[SD_ROWS * 30];
};
static struct group groups[2][2][2]; /* [game][six seats][odd chip to the low half] */

static uint32_t crc32_of(const unsigned char *p, size_t n)
{
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The table of `game` into a fresh buffer, or NULL after a message. */
static uint32_t *load_table(const char *dir, int game)
{
    static const char *const names[2] = {"badacey.tbl", "badeucy.tbl"};
    char path[4096];
    unsigned char head[32];
    size_t bytes = (size_t)BD_TABLE_ENTRIES * 4;
    unsigned char *raw = malloc(bytes);
    uint32_t *table = malloc(bytes);
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, names[game]);
    f = fopen(path, "rb");
    if (!raw || !table || !f) {
        fprintf(stderr, "%s: cannot read\n", path);
        goto fail;
    }
    if (fread(head, 1, 32, f) != 32 || fread(raw, 1, bytes, f) != bytes || fgetc(f) != EOF) {
        fprintf(stderr, "%s: wrong size (expected %zu bytes)\n", path, bytes + 32);
        goto fail;
    }
    if (memcmp(head, "BDTABLE", 8) != 0 || le32(head + 8) != 1 || le32(head + 12) != (uint32_t)game ||
        le32(head + 16) != BD_HANDS5 || le32(head + 20) != BD_BADUGI_MASKS) {
        fprintf(stderr, "%s: bad header\n", path);
        goto fail;
    }
    if (crc32_of(raw, bytes) != le32(head + 24)) {
        fprintf(stderr, "%s: CRC-32 mismatch\n", path);
        goto fail;
    }
    for (size_t i = 0; i < BD_TABLE_ENTRIES; i++)
        table[i] = le32(raw + 4 * i); /* little-endian on disk, whatever this machine is */
    if (bd_table_first_bad(table, game) != -1) {
        fprintf(stderr, "%s: an entry is out of range\n", path);
        goto fail;
    }
    fclose(f);
    free(raw);
    return table;
fail:
    if (f)
        fclose(f);
    free(raw);
    free(table);
    return NULL;
}

static int failures;

static void expect(int ok, long line, const char *what)
{
    if (!ok && failures++ < 20)
        fprintf(stderr, "golden line %ld: %s differs\n", line, what);
}

/* Next whitespace-separated integer of *p, or -1 at the end of the line (golden values are >= 0). */
static long long next_int(char **p)
{
    char *end;
    long long v = strtoll(*p, &end, 10);
    if (end == *p)
        return -1;
    *p = end;
    return v;
}

int main(int argc, char **argv)
{
    static uint8_t hands[2][MAX_ROWS][5];
    static uint16_t want_low[2][MAX_ROWS], want_bad[2][MAX_ROWS], got_low[MAX_ROWS], got_bad[MAX_ROWS];
    static uint8_t four[2][MAX_ROWS][4];
    static uint16_t want_four[2][MAX_ROWS], got_four[MAX_ROWS];
    static uint16_t table4[2][BD_HANDS4];
    long n_hands[2] = {0, 0}, n_four[2] = {0, 0}, counts[3] = {0, 0, 0};
    char isa[256], text[1024];
    uint32_t *tables[2];
    FILE *golden;
    long line = 0;

    if (argc != 3) {
        fprintf(stderr, "usage: %s TABLE_DIR GOLDEN_FILE\n", argv[0]);
        return 2;
    }
    if (bd_isa_check(isa, sizeof isa)) {
        fprintf(stderr, "%s\n", isa);
        return 3;
    }
    tables[0] = load_table(argv[1], 0);
    tables[1] = load_table(argv[1], 1);
    golden = fopen(argv[2], "r");
    if (!tables[0] || !tables[1] || !golden) {
        if (!golden)
            fprintf(stderr, "%s: cannot read\n", argv[2]);
        return 2;
    }
    bd_fill_badugi4(tables[0], table4[0]);
    bd_fill_badugi4(tables[1], table4[1]);

    while (fgets(text, sizeof text, golden)) {
        char *p = text + 1;
        long long g;
        line++;
        if (text[0] == '#' || text[0] == '\n')
            continue;
        g = next_int(&p);
        if (g != 0 && g != 1) {
            fprintf(stderr, "golden line %ld: bad game\n", line);
            return 2;
        }
        if (text[0] == 'h') {
            uint8_t c[5];
            for (int k = 0; k < 5; k++)
                c[k] = (uint8_t)next_int(&p);
            long long low = next_int(&p), bad = next_int(&p);
            uint32_t e = bd_eval5(tables[g], c[0], c[1], c[2], c[3], c[4]);
            expect((long long)(e & 0xFFFF) == low && (long long)(e >> 16) == bad, line, "bd_eval5");
            expect(bd_badugi_rank(tables[g], c, 5) == (uint32_t)bad, line, "bd_badugi_rank of 5 cards");
            if (n_hands[g] < MAX_ROWS) {
                memcpy(hands[g][n_hands[g]], c, 5);
                want_low[g][n_hands[g]] = (uint16_t)low;
                want_bad[g][n_hands[g]++] = (uint16_t)bad;
            }
            counts[0]++;
        } else if (text[0] == 'b') {
            uint8_t c[5];
            long long k = next_int(&p);
            if (k < 1 || k > 4)
                return 2;
            for (int j = 0; j < k; j++)
                c[j] = (uint8_t)next_int(&p);
            long long bad = next_int(&p);
            uint16_t one = 0;
            expect(bd_badugi_rank(tables[g], c, (size_t)k) == (uint32_t)bad, line, "bd_badugi_rank");
            expect(bd_badugi_many(tables[g], c, 1, (int)k, (int64_t)k, 1, &one, 1) == -1 && one == bad, line,
                   "bd_badugi_many");
            if (k == 4 && n_four[g] < MAX_ROWS) {
                memcpy(four[g][n_four[g]], c, 4);
                want_four[g][n_four[g]++] = (uint16_t)bad;
            }
            counts[1]++;
        } else if (text[0] == 's') {
            int32_t seats = (int32_t)next_int(&p);
            struct group *grp;
            int64_t odd, r;
            long long pot = next_int(&p), button = next_int(&p);
            odd = next_int(&p);
            if (seats < 2 || seats > 6 || odd < 0 || odd > 1)
                return 2;
            grp = &groups[g][seats == 6][odd];
            if (grp->n >= SD_ROWS || (grp->n && grp->seats != seats)) {
                fprintf(stderr, "golden line %ld: too many showdowns of one kind\n", line);
                return 2;
            }
            grp->seats = seats;
            r = grp->n++;
            grp->line[r] = line;
            grp->pot[r] = pot;
            grp->button[r] = button;
            while (*p == ' ')
                p++;
            for (int s = 0; s < seats; s++)
                grp->live[r * seats + s] = (uint8_t)(p[s] == '1');
            p += seats;
            for (int k = 0; k < 5 * seats; k++)
                grp->cards[r * seats * 5 + k] = (uint8_t)next_int(&p);
            for (int s = 0; s < seats; s++)
                grp->want[r * seats + s] = next_int(&p);
            counts[2]++;
        } else {
            fprintf(stderr, "golden line %ld: unknown kind %c\n", line, text[0]);
            return 2;
        }
    }
    fclose(golden);

    for (int g = 0; g < 2; g++) { /* the batch paths: whole vector blocks, then the scalar tail */
        int64_t n = n_hands[g];
        expect(bd_eval_many(tables[g], hands[g][0], n, 5, 1, got_low, got_bad, 1) == -1, 0, "bd_eval_many status");
        for (int64_t i = 0; i < n; i++)
            expect(got_low[i] == want_low[g][i] && got_bad[i] == want_bad[g][i], 0, "bd_eval_many");
        for (int six = 0; six < 2; six++)
            for (int odd = 0; odd < 2; odd++) {
                struct group *grp = &groups[g][six][odd];
                int32_t code = -1;
                if (!grp->n)
                    continue;
                int64_t rc = bd_showdown_many(tables[g], grp->cards, grp->live, grp->n, grp->seats, grp->pot,
                                              grp->button, odd, NULL, grp->chips, NULL, NULL, NULL, &code);
                expect(rc == -1 && code == BD_SD_OK, grp->line[0], "bd_showdown_many status");
                for (int64_t r = 0; r < grp->n; r++)
                    for (int32_t s = 0; s < grp->seats; s++)
                        expect(grp->chips[r * grp->seats + s] == grp->want[r * grp->seats + s], grp->line[r],
                               "bd_showdown_many chips");
                /* The column layout: the same chips, seat s's column at chips[s * n]. */
                rc = bd_showdown_columns(tables[g], grp->cards, grp->live, grp->n, grp->seats, grp->pot, grp->button,
                                         odd, grp->chips, grp->n, NULL, NULL, NULL, &code);
                expect(rc == -1 && code == BD_SD_OK, grp->line[0], "bd_showdown_columns status");
                for (int64_t r = 0; r < grp->n; r++)
                    for (int32_t s = 0; s < grp->seats; s++)
                        expect(grp->chips[s * grp->n + r] == grp->want[r * grp->seats + s], grp->line[r],
                               "bd_showdown_columns chips");
            }
        n = n_four[g];
        expect(bd_badugi4_many(table4[g], four[g][0], n, 4, 1, got_four, 1) == -1, 0, "bd_badugi4_many status");
        for (int64_t i = 0; i < n; i++)
            expect(got_four[i] == want_four[g][i], 0, "bd_badugi4_many");
    }
    free(tables[0]);
    free(tables[1]);
    printf("golden_test: %ld hands, %ld badugi rows, %ld showdowns; path %d (cpu has up to %d): %s\n",
           counts[0], counts[1], counts[2], bd_simd_level(), bd_cpu_simd_level(), failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
