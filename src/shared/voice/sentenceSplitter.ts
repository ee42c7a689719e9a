import { isAbbreviationDot } from './abbreviations'
import {
  hasSpeakableChar,
  isCloser,
  isLatinTerminal,
  isLowercaseLetter,
  isScriptTerminal,
  isSpace,
  joinSpeech,
  speechWeight,
  withFinalPunctuation,
} from './scripts'

export interface SplitterOptions {
  /** Sentences lighter than this (CJK characters count double) merge with the next one. */
  minChars: number
  /** A sentence that grows past this without an end is cut at a comma or a space. */
  maxChars: number
}

/** Where the text must be split, or 'wait' when the next characters decide it. */
type Scan = { end: number } | 'wait' | 'none'

/** A hard break inside the buffer: never crossed by a sentence. */
const BREAK = '\n'

/**
 * Splits plain speech (already free of Markdown) into sentences as it streams. A boundary is only
 * decided once the characters after it are known, so "3.14", "e.g. this" and "example.com" never split.
 */
export class SentenceSplitter {
  private buffer = ''
  private scanFrom = 0
  /** Complete sentences still lighter than the minimum, waiting to be merged with the next. */
  private carry = ''

  constructor(private readonly options: SplitterOptions) {}

  push(text: string, ended = false): string[] {
    this.buffer += text
    return this.drain(ended)
  }

  hardBreak(): string[] {
    if (this.buffer.trim() !== '') this.buffer += BREAK
    return this.drain(false)
  }

  /** Everything left, as sentences, regardless of the minimum length. */
  end(): string[] {
    const out = this.drain(true)
    this.addPiece(this.buffer, false, out)
    this.buffer = ''
    this.scanFrom = 0
    if (this.carry) out.push(this.carry)
    this.carry = ''
    return out
  }

  /** Before a block note: everything pending is said first, even if short. */
  flushAll(): string[] {
    return this.end()
  }

  private drain(ended: boolean): string[] {
    const out: string[] = []
    for (;;) {
      const scan = this.findBoundary(ended)
      if (scan === 'wait' || scan === 'none') break
      const piece = this.buffer.slice(0, scan.end)
      const byBreak = this.buffer[scan.end] === BREAK || piece.endsWith(BREAK)
      this.buffer = this.buffer.slice(scan.end).replace(/^\s+/, '')
      this.scanFrom = 0
      this.addPiece(piece, byBreak, out)
    }
    this.cutOverlong(out)
    return out
  }

  private addPiece(raw: string, byBreak: boolean, out: string[]): void {
    let piece = raw.replace(/\s+/g, ' ').trim()
    if (!hasSpeakableChar(piece)) {
      // A lone mark or symbol: keep it with what came before rather than speaking it alone.
      if (piece && this.carry) this.carry += piece
      return
    }
    if (byBreak) piece = withFinalPunctuation(piece)
    this.carry = joinSpeech(this.carry, piece)
    if (speechWeight(this.carry) >= this.options.minChars) {
      out.push(this.carry)
      this.carry = ''
    }
  }

  private findBoundary(ended: boolean): Scan {
    const text = this.buffer
    for (let i = this.scanFrom; i < text.length; i++) {
      const ch = text[i]
      if (ch === BREAK) return { end: i + 1 }
      if (isScriptTerminal(ch)) {
        let j = i + 1
        while (j < text.length && (isScriptTerminal(text[j]) || isCloser(text[j]))) j++
        if (j === text.length && !ended) return this.wait(i)
        return { end: j }
      }
      if (!isLatinTerminal(ch)) continue
      let j = i + 1
      while (j < text.length && isLatinTerminal(text[j])) j++
      while (j < text.length && isCloser(text[j])) j++
      if (j === text.length) return ended ? { end: j } : this.wait(i)
      const next = text[j]
      if (isScriptTerminal(next)) continue
      if (!isSpace(next)) {
        i = j - 1
        continue
      }
      const marks = text.slice(i, j).replace(/[^.…!?;‼⁇⁈⁉]/g, '')
      if (/^[.…]+$/.test(marks)) {
        let k = j
        while (k < text.length && text[k] !== BREAK && isSpace(text[k])) k++
        if (k === text.length && !ended) return this.wait(i)
        const following = text[k]
        if (following !== BREAK && following !== undefined) {
          const lastDot = i + marks.length - 1
          if (marks === '.' && isAbbreviationDot(text, lastDot)) continue
          if (isLowercaseLetter(following)) continue
        }
      }
      return { end: j }
    }
    return 'none'
  }

  private wait(at: number): 'wait' {
    this.scanFrom = at
    return 'wait'
  }

  /** A very long sentence still streaming is cut at its last comma (or space) so speech can start. */
  private cutOverlong(out: string[]): void {
    const { maxChars } = this.options
    while (speechWeight(this.carry) + speechWeight(this.buffer) > maxChars) {
      if (this.carry) {
        out.push(this.carry)
        this.carry = ''
        continue
      }
      const head = this.buffer.slice(0, maxChars)
      const comma = Math.max(...[', ', '; ', ': ', ' – ', ' — ', '、', '，'].map((m) => head.lastIndexOf(m)))
      const space = head.lastIndexOf(' ')
      const at = comma > maxChars / 3 ? comma + 1 : space > maxChars / 3 ? space : -1
      if (at < 0) return
      const piece = this.buffer.slice(0, at).replace(/\s+/g, ' ').trim()
      this.buffer = this.buffer.slice(at).replace(/^\s+/, '')
      this.scanFrom = 0
      if (hasSpeakableChar(piece)) out.push(piece)
    }
  }
}
