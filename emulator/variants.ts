/**
 * False-positive guards: variants of the emulator that differ from the
 * default only where the interface document is silent ("not shown"). The
 * whole suite must pass against each (`npm run verify`).
 */
export interface Variant {
  name: string;
  /** What differs, and why the document allows it. */
  differs: string;
}

export const variants: readonly Variant[] = [];
