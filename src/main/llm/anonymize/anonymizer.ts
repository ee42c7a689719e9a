import { isPlaceholderPrefix, PLACEHOLDER_PATTERN, placeholderToken } from './placeholderToken'

const WORD_BEFORE = '(?<![\\p{L}\\p{N}_])'
const WORD_AFTER = '(?![\\p{L}\\p{N}_])'

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** Restores placeholders as they stream in, holding back a tail that may be the start of one. */
export interface StreamRestorer {
  /** The restored text that is safe to show now (possibly ''). */
  push(chunk: string): string
  /** Whatever is still held back, restored; call once at the end of the stream. */
  flush(): string
}

/**
 * A session's anonymization registry: terms get placeholders by their index, the registry only
 * grows (a placeholder keeps its meaning for the whole session, subagents included when they share it).
 */
export class Anonymizer {
  private readonly terms: string[] = []
  /** The spelling first met in the text for each term ("Acme Corp" for the term "ACME CORP"): restored as such. */
  private readonly surfaces: Array<string | undefined> = []
  private readonly indexByKey = new Map<string, number>()
  private pattern: RegExp | undefined

  constructor(terms: Iterable<string> = []) {
    for (const term of terms) this.add(term)
  }

  get size(): number {
    return this.terms.length
  }

  /** Registers a term (case-insensitively unique) and returns its placeholder. Blank terms are ignored. */
  add(term: string): string | undefined {
    const clean = term.trim()
    if (clean === '') return undefined
    const key = clean.toLocaleLowerCase()
    let index = this.indexByKey.get(key)
    if (index === undefined) {
      index = this.terms.push(clean) - 1
      this.indexByKey.set(key, index)
      this.pattern = undefined
    }
    return placeholderToken(index)
  }

  /** Replaces every registered term (whole words only, any case, longest first) by its placeholder. */
  anonymize(text: string): string {
    if (this.terms.length === 0 || text === '') return text
    this.pattern ??= new RegExp(
      `${WORD_BEFORE}(?:${[...this.terms]
        .sort((a, b) => b.length - a.length)
        .map(escapeRegExp)
        .join('|')})${WORD_AFTER}`,
      'giu',
    )
    return text.replace(this.pattern, (match) => {
      const index = this.indexByKey.get(match.toLocaleLowerCase())
      if (index === undefined) return match
      this.surfaces[index] ??= match
      return placeholderToken(index)
    })
  }

  /** Puts the terms back, as first spelled in the text. Unknown placeholders are left as they are. */
  restore(text: string, encode: (term: string) => string = (term) => term): string {
    if (this.terms.length === 0) return text
    return text.replace(PLACEHOLDER_PATTERN, (match, hex: string) => {
      const index = Number.parseInt(hex, 16)
      const term = this.surfaces[index] ?? this.terms[index]
      return term === undefined ? match : encode(term)
    })
  }

  /** Restores inside JSON text (tool-call arguments): the term is escaped as a JSON string body. */
  restoreJson(text: string): string {
    return this.restore(text, (term) => JSON.stringify(term).slice(1, -1))
  }

  streamRestorer(): StreamRestorer {
    let held = ''
    return {
      push: (chunk) => {
        const text = held + chunk
        const open = text.lastIndexOf('[')
        const cut = open >= 0 && isPlaceholderPrefix(text.slice(open)) ? open : text.length
        held = text.slice(cut)
        return this.restore(text.slice(0, cut))
      },
      flush: () => {
        const rest = this.restore(held)
        held = ''
        return rest
      },
    }
  }
}
