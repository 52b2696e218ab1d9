# Type stub of the compiled cffi extension badacey_fast._kernel (built by csrc/build_ffi.py from the
# BD_CDEF blocks of csrc/*.h, which stay the one home of each declaration and its contract: read them
# there).  This stub only gives the C signatures Python types; tests/test_types.py checks that it names
# exactly what the built extension's `lib` exports.
#
# cffi's conversions: C integers are Python ints; a `const T *` argument takes a cdata pointer/array or
# a sequence of ints (cffi copies it into a temporary array); a writable `T *` argument, a cdata.
from collections.abc import Sequence
from typing import Final

from _cffi_backend import FFI

_CData = FFI.CData
_In = FFI.CData | Sequence[int]

ffi: FFI

class _Lib:
    BD_HANDS5: Final[int]
    BD_BADUGI_MASKS: Final[int]
    BD_TABLE_ENTRIES: Final[int]
    BD_HANDS4: Final[int]
    BD_ISA_SCALAR: Final[int]
    BD_ISA_AVX2: Final[int]
    BD_ISA_AVX512: Final[int]
    BD_DRAW_BAD_ARGS: Final[int]
    BD_DRAW_BAD_CARD: Final[int]
    BD_DRAW_DUP_CARD: Final[int]
    BD_DRAW_BAD_TABLE: Final[int]
    BD_SD_OK: Final[int]
    BD_SD_BAD_CARD: Final[int]
    BD_SD_DUP_CARD: Final[int]
    BD_SD_NO_LIVE: Final[int]
    BD_SD_BAD_POT: Final[int]
    BD_SD_BAD_BUTTON: Final[int]
    BD_SD_BAD_ARGS: Final[int]
    BD_OBS_SIZE: Final[int]
    BD_OBS_HEAD: Final[int]
    BD_OBS_ROW_MAX: Final[int]
    BD_OBS_BAD_ARGS: Final[int]
    BD_OBS_CHIPS_MAX: Final[int]
    BD_ENG_SEATS: Final[int]
    BD_ENG_DEALT_MAX: Final[int]
    BD_ENG_LOG_MAX: Final[int]
    BD_ENG_NO_CAP: Final[int]
    BD_ENG_OK: Final[int]
    BD_ENG_ILLEGAL: Final[int]
    BD_ENG_BAD_STATE: Final[int]
    BD_ENG_BAD_ARGS: Final[int]
    BD_ENG_RAN_OUT: Final[int]
    BD_ENG_BETTING: Final[int]
    BD_ENG_DRAWING: Final[int]
    BD_ENG_COMPLETE: Final[int]
    BD_ENG_FOLD: Final[int]
    BD_ENG_CALL: Final[int]
    BD_ENG_RAISE: Final[int]
    BD_ENG_DRAW: Final[int]
    BD_BOT_RANDOM: Final[int]
    BD_BOT_RULE: Final[int]
    BD_BOT_TABLE: Final[int]
    BD_MC_DRAWS: Final[int]
    BD_MC_FULL: Final[int]
    BD_PLAY_BAD_ARGS: Final[int]
    BD_PLAY_ENGINE: Final[int]
    BD_PLAY_MAX_TOKENS: Final[int]
    BD_PLAY_OK: Final[int]
    BD_SV_BAD_ARGS: Final[int]
    BD_SV_BAD_GAME: Final[int]
    BD_SV_BET: Final[int]
    BD_SV_CFR: Final[int]
    BD_SV_CFR_PLUS: Final[int]
    BD_SV_DCFR: Final[int]
    BD_SV_DRAW: Final[int]
    BD_SV_FOLD: Final[int]
    BD_SV_MAX_DEPTH: Final[int]
    BD_SV_MAX_SEEN: Final[int]
    BD_SV_NO_MEMORY: Final[int]
    BD_SV_OK: Final[int]
    BD_SV_SHOWDOWN: Final[int]
    BD_SV_TOO_LARGE: Final[int]

    # csrc/badacey.h
    def bd_eval5(self, table: _In, c0: int, c1: int, c2: int, c3: int, c4: int, /) -> int: ...
    def bd_badugi_rank(self, table: _In, cards: _In, n: int, /) -> int: ...
    def bd_eval_many(self, table: _In, cards: _In, n: int, row_stride: int, col_stride: int, low: _CData,
                     badugi: _CData, check: int, /) -> int: ...
    def bd_simd_level(self) -> int: ...
    def bd_cpu_simd_level(self) -> int: ...
    def bd_isa_check(self, msg: _CData, cap: int, /) -> int: ...
    def bd_eval_many_level(self, table: _In, cards: _In, n: int, row_stride: int, col_stride: int, low: _CData,
                           badugi: _CData, check: int, level: int, /) -> int: ...
    def bd_eval_many_shared(self, table: _In, cards: _In, n: int, row_stride: int, col_stride: int, low: _CData,
                            badugi: _CData, check: int, next: _CData, chunk: int, /) -> int: ...
    def bd_lookup_many(self, table: _In, cards: _In, n: int, row_stride: int, col_stride: int, out: _CData,
                       check: int, /) -> int: ...
    def bd_badugi_many(self, table: _In, cards: _In, n: int, k: int, row_stride: int, col_stride: int,
                       out: _CData, check: int, /) -> int: ...
    def bd_fill_badugi4(self, table: _In, table4: _CData, /) -> None: ...
    def bd_badugi4_many(self, table4: _In, cards: _In, n: int, row_stride: int, col_stride: int, out: _CData,
                        check: int, /) -> int: ...
    def bd_badugi_many_shared(self, table: _In, cards: _In, n: int, k: int, row_stride: int, col_stride: int,
                              out: _CData, check: int, next: _CData, chunk: int, /) -> int: ...
    def bd_badugi4_many_shared(self, table4: _In, cards: _In, n: int, row_stride: int, col_stride: int,
                               out: _CData, check: int, next: _CData, chunk: int, /) -> int: ...
    # csrc/draw.h
    def bd_draw_histograms(self, table: _In, kept: _In, n_kept: int, unseen: _In, n_unseen: int,
                           low_hist: _CData, low_len: int, badugi_hist: _CData, badugi_len: int, /) -> int: ...
    def bd_draw_all_discards(self, table: _In, hand: _In, unseen: _In, n_unseen: int, low_hist: _CData,
                             low_len: int, badugi_hist: _CData, badugi_len: int, /) -> int: ...
    # csrc/showdown.h
    def bd_showdown_many(self, table: _In, hands: _In, live: _In, n: int, seats: int, pot: _In, button: _In,
                         odd_low: int, shares: _CData, chips: _CData, low_win: _CData, badugi_win: _CData,
                         status: _CData, code: _CData, /) -> int: ...
    def bd_showdown_columns(self, table: _In, hands: _In, live: _In, n: int, seats: int, pot: _In, button: _In,
                            odd_low: int, chips: _CData, stride: int, low_bits: _CData, badugi_bits: _CData,
                            status: _CData, code: _CData, /) -> int: ...
    def bd_split_pot(self, amount: int, button: int, seats: int, low_winners: int, badugi_winners: int,
                     odd_low: int, chips: _CData, /) -> int: ...
    def bd_split_many(self, pot: _In, button: _In, low_bits: _In, badugi_bits: _In, n: int, seats: int,
                      odd_low: int, chips: _CData, row_step: int, seat_step: int, /) -> int: ...
    # csrc/deals.h
    def bd_parse_deals(self, buf: _CData, len: int, seats: int, csv: int, columns: _In, ncolumns: int,
                       max_rows: int, hands: _CData, live: _CData, pot: _CData, button: _CData, flags: _CData,
                       line_start: _CData, line_len: _CData, consumed: _CData, /) -> int: ...
    def bd_format_results(self, line_no: _In, chips: _In, low_win: _In, badugi_win: _In, keep: _In, n: int,
                          seats: int, out: _CData, cap: int, /) -> int: ...
    # csrc/engine.h
    def bd_eng_init(self, t: _CData, cfg: _CData, seed: int, /) -> int: ...
    def bd_eng_deal(self, t: _CData, button: int, /) -> int: ...
    def bd_eng_legal(self, t: _CData, call: _CData, target: _CData, /) -> int: ...
    def bd_eng_act(self, t: _CData, table: _In, kind: int, discards: int, /) -> int: ...
    def bd_eng_obs_row(self, t: _CData, seat: int, row: _CData, cap: int, /) -> int: ...
    def bd_eng_next_hand(self, t: _CData, table: _In, /) -> int: ...
    def bd_eng_step_one(self, t: _CData, table: _In, action: int, illegal: _CData, /) -> int: ...
    def bd_eng_reset_many(self, ts: _CData, n: int, table: _In, obs: _CData, obs_len: int, codes: _CData, /) -> int: ...
    def bd_eng_step_many(self, ts: _CData, n: int, table: _In, actions: _In, obs: _CData, final_obs: _CData,
                         obs_len: int, rewards: _CData, term: _CData, illegal: _CData, codes: _CData, /) -> int: ...
    # csrc/solve.h
    def bd_sv_deal_layer(self, n_cards: int, hand_size: int, hand: _CData, seen: _CData, cap: int, /) -> int: ...
    def bd_sv_draw_layer(self, n_cards: int, hand_size: int, parent_hand: _In, parent_seen: _In, n_parent: int,
                         k: int, hand: _CData, seen: _CData, cap: int, /) -> int: ...
    def bd_sv_check(self, g: _CData, /) -> int: ...
    def bd_sv_best_response(self, g: _CData, strategy: _In, seat: int, value: _CData, best: _CData, /) -> int: ...
    def bd_sv_profile_value(self, g: _CData, strategy: _In, value: _CData, /) -> int: ...
    def bd_sv_cfr(self, g: _CData, regret: _CData, average: _CData, first_iteration: int, iterations: int,
                  variant: int, alpha: float, beta: float, gamma: float, /) -> int: ...
    def bd_iso_canonical(self, cards: _In, size: int, n_stages: int, out: _CData, /) -> int: ...
    def bd_iso_hand_table(self, size: int, class_of: _CData, n_class_of: int, first: _CData, cap: int, /) -> int: ...
    # csrc/lbr.h
    def bd_keep_mask(self, game: int, hand: _In | bytes, n: int, /) -> int: ...
    def bd_draw_mask(self, game: int, hand: _In | bytes, n: int, k: int, /) -> int: ...
    def bd_info_key(self, seat: int, bucket: int, tokens: _In | bytes, n_tokens: int, /) -> int: ...
    def bd_hand_bucket(self, abstraction: _CData, hand: _In | bytes, n: int, /) -> int: ...
    def bd_bot_policy(self, bot: _CData, game: int, hand: _In | bytes, n: int, street: int, draws: int, code: int,
                      seat: int, tokens: _In | bytes, n_tokens: int, out: _CData, /) -> int: ...
    def bd_lbr_run(self, cfg: _CData, table: _In, bot: _CData, pairs: int, particles: int, seed: int,
                   out: _CData, /) -> int: ...
    def bd_mc_run(self, cfg: _CData, table: _In, store: _CData, abstraction: _CData, first_iteration: int,
                  iterations: int, seed: int, /) -> int: ...
    def bd_mc_rehash(self, from_: _CData, to: _CData, /) -> int: ...
    def bd_mc_lookup(self, store: _CData, key: int, n: int, out: _CData, /) -> int: ...
    # csrc/observe.h
    def bd_observe_many(self, rows: _In, rows_bytes: int, count: int, out: _CData, out_len: int, /) -> int: ...
    # csrc/tablecheck.h
    def bd_table_first_bad(self, table: _In, game: int, /) -> int: ...

lib: _Lib
