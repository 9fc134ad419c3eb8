/**
 * Zeroed int32 columns, from memory made ready while the panel was idle where there is some.
 *
 * A what-if step on a ring of 100,000 points makes six or seven columns of 400 KB (the ring's
 * points and holders, its segment table, the view's owner columns). In a webview each is fresh
 * memory that the renderer faults in page by page as the step first writes it, about 1.5 ms a
 * column on the bench machine (the panel bench, spares against none: a 3.x ring's first step
 * 39 ms of CPU against 57, its five add steps 58 against 64 on average). So the panel stocks a few
 * spares when it is idle (`stockSpareColumn`), and the engine's large columns (`int32Column`) take
 * one where it fits.
 *
 * A spare is handed out once and from then on belongs to the array made over it: nothing here keeps
 * it, so no two columns ever share memory and the garbage collector frees it as any other. With no
 * spares (Node: the extension host, the command line, the tests that do not stock) `int32Column(n)`
 * is `new Int32Array(n)`.
 */

/** Columns shorter than this are cheap to make (a few pages): they never take a spare. */
export const SPARE_MIN_LENGTH = 16384;

/**
 * Zero-filled buffers, each written once (so resident), none handed out yet. Changed in place only:
 * optimised code that reads it then keeps meeting the same array.
 */
const spares: ArrayBuffer[] = [];

/** A zeroed Int32Array of `n` entries: over a spare of room for `n` to `2n` entries, or fresh. */
export function int32Column(n: number): Int32Array {
  // Not more than twice the room: a spare much larger than the column would hold its memory for as
  // long as the column lives.
  const i = n < SPARE_MIN_LENGTH ? -1 : spares.findIndex((b) => b.byteLength >= n * 4 && b.byteLength <= n * 8);
  return i < 0 ? new Int32Array(n) : new Int32Array(spares.splice(i, 1)[0], 0, n);
}

/**
 * Makes one more spare with room for `length` entries (an integer) unless there are `count` of
 * that size already, first dropping any of another size (the panel shows another topic). Returns
 * whether it made one, so that an idle loop can stop at the end of its idle period (each spare
 * takes a millisecond or two).
 */
export function stockSpareColumn(length: number, count: number): boolean {
  for (let i = spares.length - 1; i >= 0; i--) if (spares[i].byteLength !== length * 4) spares.splice(i, 1);
  if (length < SPARE_MIN_LENGTH || spares.length >= count) return false;
  const buffer = new ArrayBuffer(length * 4);
  // Writing every page makes it resident now; zeros keep the buffer as `new Int32Array` leaves it.
  new Int32Array(buffer).fill(0);
  spares.push(buffer);
  return true;
}

/** How many spares are stocked (for the tests). */
export function spareColumnCount(): number {
  return spares.length;
}

/** Drops every spare (for the tests; the panel drops them by stocking another size, or 0). */
export function dropSpareColumns(): void {
  spares.length = 0;
}
