// Word's review marks in the Markdown, in CriticMarkup with who and when after each mark:
//   {++inserted text++}[#3 Alice 2024-05-01]     a tracked insertion (change id 3)
//   {--deleted text--}[#4 Bob 2024-05-02]        a tracked deletion (change id 4)
//   {==commented text==}[c1]                     the text comment 1 is anchored to
// and a "## Comments" list at the end: `- [c1] Alice 2024-05-01: text`, replies indented under it,
// `(resolved)` before the author of a thread marked done. The marks travel through mammoth and turndown
// as placeholders in text runs (like the math and note markers), so Markdown escaping does not touch them.

export type ReviewMode = 'marks' | 'accepted'

interface Change {
  kind: 'ins' | 'del'
  author: string
  date: string
}

/** What the rewrite of document.xml met, for the restore step after the Markdown is written. */
export class ReviewMarks {
  readonly changes = new Map<string, Change>()
  constructor(readonly mode: ReviewMode) {}
}

const marker = (body: string) => `<w:r><w:t>\u27e6rv:${body}\u27e7</w:t></w:r>`
const ATTRS = '((?:[^>/]|\\/(?!>))*)'
const removedRun = new RegExp(`<w:(del|moveFrom)\\b${ATTRS}>([\\s\\S]*?)<\\/w:\\1>`, 'g')
const insertedRun = new RegExp(`<w:(ins|moveTo)\\b${ATTRS}>|<\\/w:(ins|moveTo)>`, 'g')
const commentReference = /<w:commentReference\b[^>]*?\/>/g
const rangeEnd = /<w:commentRangeEnd\b[^>]*?\bw:id="([^"]*)"[^>]*?\/>/g
const rangeStart = /<w:commentRangeStart\b[^>]*?\bw:id="([^"]*)"[^>]*?\/>/g

function attribute(attrs: string, name: string): string {
  const match = new RegExp(`\\b${name}="([^"]*)"`).exec(attrs)
  return match?.[1] ?? ''
}

function decodeXml(value: string): string {
  return value
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCodePoint(Number.parseInt(code, 16)))
    .replace(/&amp;/g, '&')
}

function change(marks: ReviewMarks, kind: Change['kind'], attrs: string): string {
  const id = attribute(attrs, 'w:id') || String(marks.changes.size + 1)
  marks.changes.set(id, {
    kind,
    author: decodeXml(attribute(attrs, 'w:author')) || 'unknown',
    date: attribute(attrs, 'w:date').slice(0, 10),
  })
  return id
}

/**
 * document.xml with its review marks as placeholders (`marks` mode), or with comments left out
 * (`accepted`: mammoth already reads insertions as text and leaves deletions out).
 */
export function rewriteReview(xml: string, marks: ReviewMarks): string {
  if (marks.mode === 'accepted') return xml.replace(commentReference, '')
  const ranged = new Set<string>()
  for (const [, id] of xml.matchAll(rangeEnd)) if (id) ranged.add(id)
  let out = xml.replace(commentReference, (tag) => {
    const id = attribute(tag, 'w:id')
    return ranged.has(id) ? '' : marker(`cr:${id}`)
  })
  if (ranged.size > 0)
    out = out
      .replace(rangeStart, (_, id: string) => marker(`cs:${id}`))
      .replace(rangeEnd, (_, id: string) => marker(`ce:${id}`))
  if (out.includes('<w:del') || out.includes('<w:moveFrom'))
    out = out.replace(removedRun, (_, _kind: string, attrs: string, inner: string) => {
      const id = change(marks, 'del', attrs)
      const visible = inner.replace(/<w:delText\b/g, '<w:t').replace(/<\/w:delText>/g, '</w:t>')
      return `${marker(`d:${id}`)}${visible}${marker(`/d:${id}`)}`
    })
  if (out.includes('<w:ins') || out.includes('<w:moveTo')) {
    const open: string[] = []
    out = out.replace(insertedRun, (tag: string, _kind: string | undefined, attrs: string | undefined) => {
      if (tag.startsWith('</')) {
        const id = open.pop()
        return id === undefined ? tag : `${marker(`/i:${id}`)}${tag}`
      }
      const id = change(marks, 'ins', attrs ?? '')
      open.push(id)
      return `${tag}${marker(`i:${id}`)}`
    })
  }
  return out
}

const paragraph = /<w:p\b[^>]*?(?:\/>|>([\s\S]*?)<\/w:p>)/g
const textOrTab = /<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>|<w:tab\/>/g

/**
 * A header's or footer's paragraphs as lines of text with their review marks as placeholders (mammoth does
 * not read these parts); empty when the part has no tracked change, so an unreviewed header adds nothing.
 */
export function reviewedStoryLines(xml: string, marks: ReviewMarks): string[] {
  if (marks.mode !== 'marks' || !/<w:(ins|del|moveFrom|moveTo)\b/.test(xml)) return []
  const rewritten = rewriteReview(xml, marks)
  const lines: string[] = []
  for (const [, inner] of rewritten.matchAll(paragraph)) {
    const text = [...(inner ?? '').matchAll(textOrTab)]
      .map((m) => (m[1] === undefined ? ' ' : decodeXml(m[1])))
      .join('')
      .trim()
    if (text) lines.push(text)
  }
  return lines
}

const placeholder = /\u27e6rv:([a-z/]+):([^\u27e7]*)\u27e7/g

/** The placeholders as CriticMarkup; empty marks (nothing readable between them) are dropped. */
export function restoreReview(markdown: string, marks: ReviewMarks): string {
  if (!markdown.includes('\u27e6rv:')) return markdown
  const emptied = markdown.replace(
    /\u27e6rv:(i|d):([^\u27e7]*)\u27e7\s*\u27e6rv:\/\1:\2\u27e7|\u27e6rv:cs:([^\u27e7]*)\u27e7(?=\u27e6rv:ce:\3\u27e7)/g,
    '',
  )
  return emptied.replace(placeholder, (_, kind: string, id: string) => {
    const who = marks.changes.get(id)
    const signed = `[#${id} ${who?.author ?? 'unknown'}${who?.date ? ` ${who.date}` : ''}]`
    switch (kind) {
      case 'i':
        return '{++'
      case '/i':
        return `++}${signed}`
      case 'd':
        return '{--'
      case '/d':
        return `--}${signed}`
      case 'cs':
        return '{=='
      case 'ce':
        return `==}[c${id}]`
      case 'cr':
        return `[c${id}]`
      default:
        return ''
    }
  })
}
