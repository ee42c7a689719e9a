import { distance } from 'fastest-levenshtein'
import { nameKey } from './naming'

function score(key: string, option: string): number {
  const optionKey = nameKey(option)
  const contains = optionKey.includes(key) || (key.includes(optionKey) && optionKey.length >= 3)
  return contains ? 0.5 : distance(key, optionKey)
}

/**
 * Up to `limit` of `options` closest to `wanted` (spelling-insensitive), best first. `aliases` gives
 * other spellings an option also answers to (e.g. a method's name without its toolset).
 */
export function closestNames(
  wanted: string,
  options: readonly string[],
  limit = 3,
  aliases: (option: string) => readonly string[] = () => [],
): string[] {
  const key = nameKey(wanted)
  if (key === '') return []
  const budget = Math.max(2, Math.floor(key.length * 0.4))
  return options
    .map((option) => ({
      option,
      score: Math.min(score(key, option), ...aliases(option).map((alias) => score(key, alias))),
    }))
    .filter((entry) => entry.score <= budget)
    .sort((a, b) => a.score - b.score)
    .slice(0, limit)
    .map((entry) => entry.option)
}

export function didYouMean(
  wanted: string,
  options: readonly string[],
  format = (name: string) => `\`${name}\``,
  aliases?: (option: string) => readonly string[],
): string {
  const close = closestNames(wanted, options, 3, aliases)
  return close.length > 0 ? ` Did you mean ${close.map(format).join(' or ')}?` : ''
}
