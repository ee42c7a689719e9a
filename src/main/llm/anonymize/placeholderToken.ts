/**
 * The placeholder format: `[<HEX>_PLACEHOLDER]`, HEX being the term's index in the session's
 * registry in uppercase hexadecimal without leading zeros: `[0_PLACEHOLDER]`, `[1F_PLACEHOLDER]`.
 * Restoring accepts any letter case (models sometimes lowercase it).
 */
export function placeholderToken(index: number): string {
  return `[${index.toString(16).toUpperCase()}_PLACEHOLDER]`
}

export const PLACEHOLDER_PATTERN = /\[([0-9A-F]{1,8})_PLACEHOLDER\]/gi

const SUFFIX = '_PLACEHOLDER]'

/**
 * Whether `text` (starting with `[`) could still grow into a placeholder: `[`, `[1F`, `[1F_PLA`...
 * Used by the stream restorer to hold such a tail back until the next chunk decides.
 */
export function isPlaceholderPrefix(text: string): boolean {
  const match = /^\[([0-9A-F]{0,8})(_[A-Z]*)?$/i.exec(text)
  if (!match) return false
  const hex = match[1] ?? ''
  const rest = match[2]
  if (rest === undefined) return true
  return hex.length > 0 && SUFFIX.startsWith(rest.toUpperCase())
}

/** The line the system prompt carries so the model keeps the placeholders intact. */
export const ANONYMIZATION_INSTRUCTION =
  'Some names and keys in this conversation are replaced by placeholders such as [0_PLACEHOLDER] or [1F_PLACEHOLDER]. ' +
  'Copy every placeholder exactly as written, brackets included, wherever you refer to it; never guess what it stands for.'
