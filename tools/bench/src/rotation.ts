/**
 * The items, starting with the round's own: round 1 with the first, round 2 with the second,
 * and so on around. Benches that measure several stacks in one round start them in this order,
 * so no stack is always first: one that was measured about 9% cheaper than its identical twin
 * loaded just after it (same build as both variants, 10 rounds at once).
 */
export function rotated<T>(items: readonly T[], round: number): T[] {
  if (items.length === 0) return [];
  const start = (((round - 1) % items.length) + items.length) % items.length;
  return [...items.slice(start), ...items.slice(0, start)];
}
