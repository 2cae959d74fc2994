// Its own module: the follower (follow.ts) runs on the page's thread, and taking the constant from
// loadState.ts would put the load state's line parser, with every converter, in the page's startup script.

/**
 * How many of the first and of the last bytes read a follower checks before it appends (docs/adr/0010,
 * 0028): a range read starts this far back, and those bytes, and the file's first ones, must digest as
 * what was read (format/read's check windows), or the file was rewritten (truncated and written past its
 * old size, or rewritten in place) and is loaded again. Costs 2 KiB and one more small request per append.
 */
export const FOLLOW_CHECK_BYTES = 1024;
