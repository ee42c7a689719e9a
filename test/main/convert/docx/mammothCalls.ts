// Random documents as mammoth's writer receives them (open, close, text, selfClosing), for comparing the
// light tree's Markdown with the DOM path's. Seeded: the same seed gives the same documents.

import { seededRandom } from '../../../support/seededRandom'

export type Call =
  | ['open' | 'selfClosing', string, Record<string, string>]
  | ['close', string]
  | ['text', string]

export interface CallWriter {
  open(tag: string, attributes: Record<string, string>): void
  close(tag: string): void
  text(value: string): void
  selfClosing(tag: string, attributes: Record<string, string>): void
}

export function replay(calls: Call[], writer: CallWriter): void {
  for (const call of calls) {
    if (call[0] === 'open') writer.open(call[1], call[2])
    else if (call[0] === 'selfClosing') writer.selfClosing(call[1], call[2])
    else if (call[0] === 'close') writer.close(call[1])
    else writer.text(call[1])
  }
}

function generator(seed: number) {
  const next = seededRandom(seed)
  return {
    chance: (p: number) => next() < p,
    below: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
  }
}

/** Text pieces Markdown escapes or collapses, spaces of every kind, and characters an HTML parser treats apart. */
const PIECES = [
  ...['a', 'word', ' ', '  ', '\n', '\t', ' x ', '\u00a0', '\u2003', '\u200b', '\ufeff', '\f', '\u000b'],
  ...['*', '_', '-', '+ ', '#', '## ', '1. ', '2)', '`', '~~~', '[', ']', '>', '=', '\\', '|', '<', '&'],
  ...['"', "'", 'é', '日', '\u27e6', 'http://e.x/a_b', 'javascript:x', '.', ',', '\u0001', '&amp;'],
]
const INLINE = ['strong', 'em', 's', 'u', 'sup', 'sub', 'a']
const BLOCK = ['p', 'h1', 'h2', 'h3', 'ul', 'ol', 'table', 'dl']
const ANY = [
  'p',
  'h1',
  'ul',
  'li',
  'dl',
  'dt',
  'dd',
  'table',
  'thead',
  'tbody',
  'tr',
  'td',
  'th',
  'a',
  'em',
  'sup',
]

type Context = 'flow' | 'inline' | 'table' | 'section' | 'row' | 'list' | 'terms'

export function randomDocument(seed: number, { chaos = false } = {}): Call[] {
  const random = generator(seed)
  const text = () => Array.from({ length: 1 + random.below(4) }, () => random.pick(PIECES)).join('')
  const attributes = (tag: string): Record<string, string> => {
    const found: Record<string, string> = {}
    if (tag === 'a') {
      if (random.chance(0.6))
        found.href = random.pick([
          ...['https://e.x/(a) b', '#footnote-1', '#endnote-2', '#comment-0', '#comment-x', '#x', ''],
          ...['javascript:void(0)', 'https://www.google.com/url?q=https://t.example/p', ' ', 'mailto:a@b'],
        ])
      if (random.chance(0.5)) found.id = random.pick(['footnote-ref-1', 'x', 'comment-ref-0'])
    }
    if ((tag === 'td' || tag === 'th') && random.chance(0.2)) found.colspan = random.pick(['2', '3', '', 'x'])
    if ((tag === 'td' || tag === 'th') && random.chance(0.1)) found.rowspan = '2'
    if (tag === 'li' && random.chance(0.3))
      found.id = random.pick(['footnote-1', 'endnote-2', 'footnote-x', 'other'])
    if (tag === 'dt' && random.chance(0.6)) found.id = random.pick(['comment-0', 'comment-1', 'x'])
    if (tag === 'img') {
      if (random.chance(0.8)) found.src = random.pick(['data:image/png;base64,AA==', 'x (1).png', ''])
      if (random.chance(0.5)) found.alt = text()
    }
    if (tag === 'input') {
      found.type = random.pick(['checkbox', 'CHECKBOX', 'text'])
      if (random.chance(0.5)) found.checked = 'checked'
    }
    return found
  }
  const calls: Call[] = []
  let inLink = false
  const element = (tag: string, inner: Context, depth: number) => {
    const outerLink = inLink
    inLink ||= tag === 'a'
    calls.push(['open', tag, attributes(tag)])
    fill(inner, depth + 1)
    calls.push(['close', tag])
    inLink = outerLink
  }
  const fill = (context: Context, depth: number): void => {
    const count = depth === 0 ? 3 + random.below(12) : random.below(depth > 4 ? 2 : 4)
    // A table holds rows, or a header section and a body section (as mammoth writes them).
    const sections = context === 'table' && random.chance(0.3)
    for (let index = 0; index < count; index++) {
      if (context === 'table')
        sections ? element(index === 0 ? 'thead' : 'tbody', 'section', depth) : element('tr', 'row', depth)
      else if (context === 'section') element('tr', 'row', depth)
      else if (context === 'row') element(random.chance(0.7) ? 'td' : 'th', 'flow', depth)
      else if (context === 'list') {
        // Sometimes a task item: a checkbox first in the item.
        if (random.chance(0.2)) calls.push(['open', 'li', {}], ['selfClosing', 'input', attributes('input')])
        else calls.push(['open', 'li', attributes('li')])
        fill(random.chance(0.5) ? 'inline' : 'flow', depth + 1)
        calls.push(['close', 'li'])
      } else if (context === 'terms')
        random.chance(0.5) ? element('dt', 'inline', depth) : element('dd', 'flow', depth)
      else if (chaos && random.chance(0.15))
        element(
          random.pick(ANY),
          random.pick(['inline', 'flow', 'table', 'row', 'list', 'terms', 'section']),
          depth,
        )
      else if (random.chance(0.35)) calls.push(['text', text()])
      else if (random.chance(0.1)) {
        const tag = random.pick(['br', 'img', 'input'])
        calls.push(['selfClosing', tag, attributes(tag)])
      } else if (context === 'inline' || random.chance(0.55)) {
        const tag = random.pick(INLINE)
        element(tag === 'a' && inLink && !chaos ? 'em' : tag, 'inline', depth)
      } else {
        const tag = random.pick(BLOCK)
        const inner =
          tag === 'table' ? 'table' : tag === 'dl' ? 'terms' : /^[uo]l$/.test(tag) ? 'list' : 'inline'
        element(tag, inner, depth)
      }
    }
  }
  fill('flow', 0)
  if (random.chance(0.3)) notes(calls, text)
  if (random.chance(0.3)) comments(calls, text)
  return calls
}

/** The footnote list mammoth writes after the body. */
function notes(calls: Call[], text: () => string): void {
  calls.push(['open', 'ol', {}])
  for (const id of ['footnote-1', 'endnote-2']) {
    calls.push(['open', 'li', { id }], ['open', 'p', {}], ['text', text()], ['close', 'p'])
    calls.push(['open', 'p', {}], ['text', ' '], ['open', 'a', { href: `#${id.replace('-', '-ref-')}` }])
    calls.push(['text', '↑'], ['close', 'a'], ['close', 'p'], ['close', 'li'])
  }
  calls.push(['close', 'ol'])
}

/** The comment list mammoth writes after the footnotes. */
function comments(calls: Call[], text: () => string): void {
  calls.push(
    ['open', 'dl', {}],
    ['open', 'dt', { id: 'comment-0' }],
    ['text', 'Comment [A1]'],
    ['close', 'dt'],
  )
  calls.push(['open', 'dd', {}], ['open', 'p', {}], ['text', text()], ['close', 'p'], ['open', 'p', {}])
  calls.push(['text', ' '], ['open', 'a', { href: '#comment-ref-0' }], ['text', '↑'], ['close', 'a'])
  calls.push(['close', 'p'], ['close', 'dd'], ['close', 'dl'])
}
