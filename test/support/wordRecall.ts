/**
 * Share of the wanted words, counted with repeats, that `have` also holds (1 when nothing is wanted):
 * how much of a reference text an output kept. The word counts come from the caller's own tokenizer.
 */
export function recallOfCounts(wanted: Map<string, number>, have: Map<string, number>): number {
  let total = 0
  let found = 0
  for (const [word, count] of wanted) {
    total += count
    found += Math.min(count, have.get(word) ?? 0)
  }
  return total === 0 ? 1 : found / total
}
