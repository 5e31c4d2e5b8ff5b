// Working arrays kept between calls. A stream's step compares listings of ~13,405 rows ten
// times a second; typed arrays of that size live outside the heap, and making several anew
// on every step made the collector run more often than the step's own work cost. A caller
// that runs to its end without yielding, and keeps none of them, borrows these instead.

type Working = Int32Array | Uint8Array;

/** Numbered working arrays of at least a given length, filled when lent. */
export class Scratch {
  private readonly intArrays: Int32Array[] = [];
  private readonly byteArrays: Uint8Array[] = [];

  /** working Int32Array `slot`, `n` long and filled with `value` (valid until the slot is asked for again) */
  ints(slot: number, n: number, value = 0): Int32Array {
    return lend(this.intArrays, slot, n, value, (size) => new Int32Array(size));
  }

  /** working Uint8Array `slot`, `n` long and zeroed */
  bytes(slot: number, n: number): Uint8Array {
    return lend(this.byteArrays, slot, n, 0, (size) => new Uint8Array(size));
  }
}

function lend<A extends Working>(kept: A[], slot: number, n: number, value: number, make: (size: number) => A): A {
  let a = kept[slot];
  // room for a listing that grows a little before the next one is made
  if (a === undefined || a.length < n) a = kept[slot] = make(Math.max(1024, Math.ceil(n * 1.25)));
  const view = a.subarray(0, n) as A;
  view.fill(value);
  return view;
}
