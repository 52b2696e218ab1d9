/* cpython/observe_rows.c -- the kernel's observation encoder (observe.c) compiled once more, into the
 * _speedups extension, for speedups.c's observe_rows (the list -> int64 glue in front of bd_observe_many).
 * Through this file the object has a path of its own (see lookup.c for why the two builds must not share
 * one). */
#include "../observe.c"
