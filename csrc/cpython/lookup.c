/* lookup.c -- the kernel's lookup code (badacey.c) compiled once more, into the _speedups extension.
 *
 * Both extensions need bd_eval5 and its tables' layout, and setup.py builds them in parallel.  Listing
 * csrc/badacey.c itself among _speedups' sources made both builds write the same object file
 * (build/temp.../csrc/badacey.o) at once: a link could pick up a half-written object and leave
 * _speedups with an undefined bd_eval5.  Through this file the object has a path of its own. */
#include "../badacey.c"
