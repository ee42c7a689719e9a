import { MarkdownSpeechReader, type SpeechPiece } from './markdownSpeech'
import { SentenceSplitter } from './sentenceSplitter'

/** One unit handed to TTS. */
export interface SpokenSentence {
  /** 0, 1, 2, ... in speaking order. */
  index: number
  /** What is said aloud: plain text, no Markdown. */
  text: string
  /** `code` and `table`: a note said in place of a block, whose Markdown is in `source`. */
  kind: 'text' | 'code' | 'table'
  source?: string
  language?: string
}

export interface BlockNotes {
  code(language: string | undefined): string
  table(): string
}

export interface ChunkerOptions {
  /** Sentences shorter than this merge with the next (default 24; CJK characters count double). */
  minChars?: number
  /** Sentences longer than this are cut at a comma while they stream (default 260). */
  maxChars?: number
  /** What is said for a code block or a table. */
  notes?: Partial<BlockNotes>
}

const LANGUAGE_NAMES: Record<string, string> = {
  js: 'JavaScript',
  javascript: 'JavaScript',
  ts: 'TypeScript',
  typescript: 'TypeScript',
  py: 'Python',
  python: 'Python',
  sh: 'shell',
  bash: 'shell',
  shell: 'shell',
  sql: 'SQL',
  json: 'JSON',
  html: 'HTML',
  css: 'CSS',
  java: 'Java',
  csharp: 'C sharp',
  cs: 'C sharp',
  cpp: 'C++',
  go: 'Go',
  rust: 'Rust',
  yaml: 'YAML',
  xml: 'XML',
  vba: 'VBA',
  powershell: 'PowerShell',
}

export const defaultNotes: BlockNotes = {
  code: (language) => {
    if (language?.toLowerCase() === 'mermaid') return 'See the diagram on screen.'
    const name = language ? LANGUAGE_NAMES[language.toLowerCase()] : undefined
    return name ? `See the ${name} code on screen.` : 'See the code on screen.'
  },
  table: () => 'See the table on screen.',
}

/** Streaming text-to-sentences: push deltas, get the sentences that became complete. */
export interface SentenceChunker {
  push(delta: string): SpokenSentence[]
  /** The stream ended: everything left, even a short or unfinished sentence. */
  end(): SpokenSentence[]
}

/**
 * Splits a streamed Markdown answer into speakable sentences: Markdown syntax is never read,
 * code blocks and tables become a short note, abbreviations, decimals, versions and URLs are never
 * split, short fragments merge with the next sentence, and a sentence is released the moment the
 * text after it shows that it is complete.
 */
export function createSentenceChunker(options: ChunkerOptions = {}): SentenceChunker {
  const notes = { ...defaultNotes, ...options.notes }
  const reader = new MarkdownSpeechReader()
  const splitter = new SentenceSplitter({
    minChars: options.minChars ?? 24,
    maxChars: options.maxChars ?? 260,
  })
  let index = 0
  const sentence = (text: string): SpokenSentence => ({ index: index++, text, kind: 'text' })

  const consume = (pieces: SpeechPiece[]): SpokenSentence[] => {
    const out: SpokenSentence[] = []
    for (const piece of pieces) {
      if (piece.type === 'text') out.push(...splitter.push(piece.text).map(sentence))
      else if (piece.type === 'break') out.push(...splitter.hardBreak().map(sentence))
      else {
        out.push(...splitter.flushAll().map(sentence))
        out.push({
          index: index++,
          text: piece.kind === 'code' ? notes.code(piece.language) : notes.table(),
          kind: piece.kind,
          source: piece.source,
          ...(piece.language ? { language: piece.language } : {}),
        })
      }
    }
    return out
  }

  return {
    push: (delta) => consume(reader.push(delta)),
    end: () => [...consume(reader.end()), ...splitter.end().map(sentence)],
  }
}

/** All sentences of a finished text (`bureau say`, tests). */
export function chunkText(text: string, options?: ChunkerOptions): SpokenSentence[] {
  const chunker = createSentenceChunker(options)
  return [...chunker.push(text), ...chunker.end()]
}
