/** Small statistics shared by the benchmarks. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** `median 8.1 s (min 7.9, max 9.0, 5 runs)`: the line every wall-time bench prints. */
export function spread(xs: readonly number[], unit = 's', digits = 1): string {
  return `median ${median(xs).toFixed(digits)} ${unit} (min ${Math.min(...xs).toFixed(digits)}, max ${Math.max(...xs).toFixed(digits)}, ${xs.length} runs)`;
}
