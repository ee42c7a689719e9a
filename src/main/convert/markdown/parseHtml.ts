import { createDocument } from '@mixmark-io/domino'
import { Tokenizer } from 'htmlparser2'

/**
 * Elements nested deeper than this lose their tags and keep their text. domino's tree builder
 * scans its stack of open elements (quadratic in the depth) and turndown recurses per level: a mail
 * of 100,000 nested `<div>`s took a minute and then overflowed the stack. Browsers cap the depth
 * of the tree they build (Blink at 512); real documents stay far below this.
 */
export const MAX_HTML_DEPTH = 256

export interface BoundedHtml {
  html: string
  /** Elements whose tags were dropped because they were nested too deeply. */
  flattened: number
}

const VOID = new Set([
  'area',
  'base',
  'basefont',
  'bgsound',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'image',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
])
const P = ['p']
const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p']
const FORM = ['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']
const DD_DT = ['dd', 'dt']
const SECTIONS = ['thead', 'tbody']
/** The open elements a start tag closes when they are the innermost (htmlparser2's table). */
const CLOSED_BY = new Map<string, readonly string[]>([
  ['tr', ['tr', 'th', 'td']],
  ['th', ['th']],
  ['td', ['thead', 'th', 'td']],
  ['body', ['head', 'link', 'script']],
  ['a', ['a']],
  ['li', ['li']],
  ['option', ['option']],
  ['optgroup', ['optgroup', 'option']],
  ['dd', DD_DT],
  ['dt', DD_DT],
  ['rt', ['rt', 'rp']],
  ['rp', ['rt', 'rp']],
  ['tbody', SECTIONS],
  ['tfoot', SECTIONS],
  ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((h) => [h, HEADINGS] as const),
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((f) => [f, FORM] as const),
  ...[
    'p',
    'address',
    'article',
    'aside',
    'blockquote',
    'details',
    'div',
    'dl',
    'fieldset',
    'figcaption',
    'figure',
    'footer',
    'form',
    'header',
    'hr',
    'main',
    'nav',
    'ol',
    'pre',
    'section',
    'table',
    'ul',
  ].map((b) => [b, P] as const),
])
/** How far down the open elements an end tag looks for its start tag; further, it is stray. */
const END_TAG_REACH = 1024

/**
 * The HTML with every element nested deeper than `maxDepth` unwrapped (its start and end tags
 * cut out, its text and children kept), found in one linear pass of htmlparser2's tokenizer with
 * a stack of our own (htmlparser2's Parser shifts its stack at the front: quadratic in the depth).
 * HTML that cannot be that deep (fewer tags than `maxDepth`) is not tokenized.
 */
export function boundHtmlDepth(html: string, maxDepth = MAX_HTML_DEPTH): BoundedHtml {
  let tags = 0
  for (let at = html.indexOf('<'); at !== -1 && tags <= maxDepth; at = html.indexOf('<', at + 1)) tags++
  if (tags <= maxDepth) return { html, flattened: 0 }
  const names: string[] = []
  const deep: boolean[] = []
  const cuts: number[] = []
  let flattened = 0
  let openStart = -1
  let openDeep = false
  const pop = () => {
    names.pop()
    return deep.pop() === true
  }
  const endOpen = (endIndex: number) => {
    if (openDeep) cuts.push(openStart, endIndex + 1)
    openDeep = false
  }
  const noop = () => undefined
  const tokenizer = new Tokenizer(
    { xmlMode: false, decodeEntities: false },
    {
      onopentagname(start, endIndex) {
        const name = html.slice(start, endIndex).toLowerCase()
        const closes = CLOSED_BY.get(name)
        while (closes && names.length > 0 && closes.includes(names[names.length - 1]!)) pop()
        openStart = start - 1
        openDeep = false
        if (VOID.has(name)) return
        openDeep = names.length >= maxDepth
        if (openDeep) flattened++
        names.push(name)
        deep.push(openDeep)
      },
      onopentagend: endOpen,
      onselfclosingtag: endOpen,
      onclosetag(start, endIndex) {
        const name = html.slice(start, endIndex).toLowerCase()
        const floor = Math.max(0, names.length - END_TAG_REACH)
        let at = names.length - 1
        while (at >= floor && names[at] !== name) at--
        if (at < floor) return
        while (names.length > at + 1) pop()
        if (!pop()) return
        const close = html.indexOf('>', endIndex)
        cuts.push(start - 2, close === -1 ? html.length : close + 1)
      },
      onattribdata: noop,
      onattribentity: noop,
      onattribend: noop,
      onattribname: noop,
      oncdata: noop,
      oncomment: noop,
      ondeclaration: noop,
      onend: noop,
      onprocessinginstruction: noop,
      ontext: noop,
      ontextentity: noop,
    },
  )
  tokenizer.write(html)
  tokenizer.end()
  if (flattened === 0) return { html, flattened: 0 }
  const kept: string[] = []
  let from = 0
  for (let i = 0; i < cuts.length; i += 2) {
    const start = cuts[i]!
    if (start < from) continue
    kept.push(html.slice(from, start))
    from = cuts[i + 1]!
  }
  kept.push(html.slice(from))
  return { html: kept.join(''), flattened }
}

/**
 * Parses HTML into a standalone DOM (domino, the parser turndown itself uses in Node), nesting
 * bounded by `boundHtmlDepth`; `warnings` hears when elements were unwrapped.
 */
export function parseHtml(html: string, warnings?: string[]): Document {
  const bounded = boundHtmlDepth(html)
  if (bounded.flattened > 0)
    warnings?.push(
      `the HTML nests elements more than ${MAX_HTML_DEPTH} deep: ${bounded.flattened.toLocaleString('en-US')} deeper elements were unwrapped (their text kept, their formatting and links not)`,
    )
  return createDocument(bounded.html, true)
}
