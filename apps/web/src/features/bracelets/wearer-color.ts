/** Colours with at least 4.5:1 contrast against white text and a distinct hue each. */
const PALETTE = [
  '#0f766e',
  '#1d4ed8',
  '#7c3aed',
  '#be123c',
  '#b45309',
  '#15803d',
  '#0e7490',
  '#a21caf',
] as const;

/**
 * The colour code of the pairing modal (spec section 3: colorCode): a wearer's own colour, the same on every
 * screen, so staff pairing several bracelets at a desk tell whose modal is open at a glance.
 */
export function wearerColor(uid: string): string {
  let hash = 0;
  for (const char of uid) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return PALETTE[hash % PALETTE.length] ?? PALETTE[0];
}
