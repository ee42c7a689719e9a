import { stableCut, stripInline } from './inlineMarkdown'

/** What the Markdown reader hands to the sentence splitter. */
export type SpeechPiece =
  | { type: 'text'; text: string }
  /** A boundary no sentence crosses: end of a paragraph, heading or list item. */
  | { type: 'break' }
  /** A code block or table: not read aloud, replaced by a short note. */
  | { type: 'block'; kind: 'code' | 'table'; source: string; language?: string }

type LineKind = 'paragraph' | 'heading' | 'list' | 'quote'

type Mode =
  | { name: 'line-start' }
  | { name: 'text'; kind: LineKind }
  | { name: 'fence'; char: string; length: number; language: string | undefined; lines: string[] }
  | { name: 'table'; lines: string[] }

type LineClass =
  | { type: 'blank' }
  | { type: 'fence'; char: string; length: number; language: string | undefined }
  | { type: 'table' }
  | { type: 'delimiter' }
  | { type: 'rule' }
  | { type: 'text'; kind: LineKind; prefixLength: number }

const FENCE = /^\s*(`{3,}|~{3,})\s*([^`\s]*)/
const DELIMITER_ROW = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)+\|?\s*$/
const RULE = /^\s{0,3}([-*_=])(\s*\1){2,}\s*$/
const PREFIX_START = /^[#>\-*+[\d]/

function parsePrefix(line: string): { kind: LineKind; length: number } {
  let kind: LineKind = 'paragraph'
  let at = 0
  for (;;) {
    const rest = line.slice(at)
    const quote = /^\s*>\s?/.exec(rest)
    if (quote) {
      if (kind === 'paragraph') kind = 'quote'
      at += quote[0].length
      continue
    }
    const heading = /^\s*#{1,6}(\s+|$)/.exec(rest)
    if (heading) return { kind: 'heading', length: at + heading[0].length }
    const item = /^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/.exec(rest)
    if (item) return { kind: 'list', length: at + item[0].length }
    return { kind, length: at }
  }
}

function classifyComplete(line: string): LineClass {
  if (line.trim() === '') return { type: 'blank' }
  const fence = FENCE.exec(line)
  if (fence?.[1])
    return {
      type: 'fence',
      char: fence[1][0] ?? '`',
      length: fence[1].length,
      language: fence[2] || undefined,
    }
  if (/^\s*\|/.test(line)) return { type: 'table' }
  if (DELIMITER_ROW.test(line)) return { type: 'delimiter' }
  if (RULE.test(line)) return { type: 'rule' }
  const prefix = parsePrefix(line)
  return { type: 'text', kind: prefix.kind, prefixLength: prefix.length }
}

/** Classifies a line whose end has not arrived; undefined while more text could change the answer. */
function classifyPartial(line: string): LineClass | undefined {
  const trimmed = line.trimStart()
  if (trimmed === '') return undefined
  if (trimmed[0] === '|') return { type: 'table' }
  if (/^(`{3,}|~{3,})/.test(trimmed) || /^(`{1,2}|~{1,2})$/.test(trimmed)) return undefined
  if (/^[-*_=][-*_=\s]*$/.test(trimmed)) return undefined
  const prefix = parsePrefix(line)
  const rest = line.slice(prefix.length)
  if (rest.trim() === '') return undefined
  // "1", "#", "- [" could still grow into a list number, heading or task box: wait for the first word.
  if (PREFIX_START.test(rest) && !/\s/.test(rest)) return undefined
  return { type: 'text', kind: prefix.kind, prefixLength: prefix.length }
}

function isClosingFence(line: string, mode: { char: string; length: number }): boolean {
  const match = /^\s*(`{3,}|~{3,})\s*$/.exec(line)
  return match?.[1]?.[0] === mode.char && match[1].length >= mode.length
}

/**
 * Reads streamed Markdown line by line and turns it into speech pieces. Text is released as soon as
 * it cannot change any more (up to the last whitespace of an unfinished line); block syntax is
 * recognised at the start of each line; code blocks and tables come out whole, as one block piece.
 */
export class MarkdownSpeechReader {
  private buffer = ''
  private mode: Mode = { name: 'line-start' }
  /** The kind of the text line that just ended, until the next line says whether that was a hard break. */
  private lineEnded: LineKind | undefined
  private out: SpeechPiece[] = []

  push(delta: string): SpeechPiece[] {
    this.buffer += delta.replace(/\r/g, '')
    this.run(false)
    return this.take()
  }

  end(): SpeechPiece[] {
    this.run(true)
    if (this.mode.name === 'fence' || this.mode.name === 'table') this.closeBlock()
    return this.take()
  }

  private take(): SpeechPiece[] {
    const pieces = this.out
    this.out = []
    return pieces
  }

  /** The raw character before the next piece of the current line (emphasis depends on it). */
  private lineTail: string | undefined

  private text(raw: string): void {
    const text = stripInline(raw, this.lineTail)
    this.lineTail = raw.at(-1) ?? this.lineTail
    if (text !== '') this.out.push({ type: 'text', text })
  }

  /** Settles the previous line's end: a soft wrap inside a paragraph is a space, anything else a break. */
  private settleLineEnd(hard: boolean): void {
    if (this.lineEnded === undefined) return
    this.out.push(hard ? { type: 'break' } : { type: 'text', text: ' ' })
    this.lineEnded = undefined
  }

  private closeBlock(): void {
    const mode = this.mode
    if (mode.name === 'fence') {
      this.out.push({
        type: 'block',
        kind: 'code',
        source: mode.lines.join('\n'),
        ...(mode.language ? { language: mode.language } : {}),
      })
    } else if (mode.name === 'table') {
      this.out.push({ type: 'block', kind: 'table', source: mode.lines.join('\n') })
    }
    this.mode = { name: 'line-start' }
  }

  private run(ended: boolean): void {
    for (;;) {
      const newline = this.buffer.indexOf('\n')
      const complete = newline >= 0
      const line = complete ? this.buffer.slice(0, newline) : this.buffer
      const consumeLine = () => {
        this.buffer = complete ? this.buffer.slice(newline + 1) : ''
      }
      if (this.buffer === '' && !(ended && this.mode.name === 'text')) return
      const mode = this.mode
      switch (mode.name) {
        case 'text': {
          if (complete || ended) {
            this.text(line)
            consumeLine()
            this.lineTail = undefined
            this.lineEnded = mode.kind
            this.mode = { name: 'line-start' }
            if (!complete) return
          } else {
            const cut = stableCut(this.buffer)
            if (cut > 0) {
              this.text(this.buffer.slice(0, cut))
              this.buffer = this.buffer.slice(cut)
            }
            return
          }
          break
        }
        case 'fence': {
          if (!complete) {
            if (ended) {
              mode.lines.push(line)
              consumeLine()
            }
            return
          }
          consumeLine()
          if (isClosingFence(line, mode)) this.closeBlock()
          else mode.lines.push(line)
          break
        }
        case 'table': {
          const trimmed = line.trimStart()
          const row = trimmed.startsWith('|') || (complete && line.includes('|') && line.trim() !== '')
          if (row && (complete || ended)) {
            mode.lines.push(line)
            consumeLine()
          } else if (!row && (complete || ended || (trimmed !== '' && !trimmed.includes('|')))) {
            this.closeBlock()
          } else return
          break
        }
        case 'line-start': {
          const cls = complete || ended ? classifyComplete(line) : classifyPartial(line)
          if (!cls) return
          this.startLine(cls, line, consumeLine)
          break
        }
      }
    }
  }

  private startLine(cls: LineClass, line: string, consumeLine: () => void): void {
    switch (cls.type) {
      case 'blank':
        this.settleLineEnd(true)
        consumeLine()
        return
      case 'rule':
        this.settleLineEnd(true)
        consumeLine()
        return
      case 'fence':
        this.settleLineEnd(true)
        consumeLine()
        this.mode = { name: 'fence', char: cls.char, length: cls.length, language: cls.language, lines: [] }
        return
      case 'table':
        this.settleLineEnd(true)
        this.mode = { name: 'table', lines: [] }
        return
      case 'delimiter':
        // A table whose header row had no leading pipe: that row was already read as text.
        this.settleLineEnd(true)
        consumeLine()
        this.mode = { name: 'table', lines: [line] }
        return
      case 'text': {
        const previous = this.lineEnded
        const continues =
          (cls.kind === 'paragraph' && previous !== 'heading') ||
          (cls.kind === 'quote' && previous === 'quote')
        this.settleLineEnd(!continues)
        this.buffer = this.buffer.slice(cls.prefixLength)
        this.mode = { name: 'text', kind: cls.kind }
      }
    }
  }
}
