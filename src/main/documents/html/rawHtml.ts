import { Tokenizer } from 'htmlparser2'

// Raw HTML in the Markdown (`<div align="center">`, `<p>`, `<table>`) goes into a document through
// an allowlist: formatting and layout tags with a few plain attributes are kept, everything else is
// left out with its name in the warnings (script, style and the like with their content). Each
// Markdown html node is cleaned on its own; an open tag and its close may sit in different nodes (a
// `<div>` around Markdown paragraphs), and the browser that prints the page joins them. htmlparser2's
// tokenizer reads the fragment in one linear pass, whatever its nesting.

const KEPT_TAGS = new Set([
  'a',
  'abbr',
  'address',
  'article',
  'aside',
  'b',
  'big',
  'blockquote',
  'br',
  'caption',
  'center',
  'cite',
  'code',
  'col',
  'colgroup',
  'dd',
  'del',
  'details',
  'dfn',
  'div',
  'dl',
  'dt',
  'em',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'i',
  'ins',
  'kbd',
  'li',
  'mark',
  'ol',
  'p',
  'pre',
  'q',
  's',
  'samp',
  'section',
  'small',
  'span',
  'strike',
  'strong',
  'sub',
  'summary',
  'sup',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'tt',
  'u',
  'ul',
  'var',
  'wbr',
])
/** Left out with everything inside them. */
const DROPPED_WITH_CONTENT = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'applet',
  'svg',
  'math',
  'textarea',
  'select',
  'title',
  'head',
  'frameset',
  'noembed',
  'noframes',
])
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
])
const KEPT_ATTRIBUTES = new Set([
  'align',
  'valign',
  'colspan',
  'rowspan',
  'dir',
  'lang',
  'title',
  'start',
  'width',
])
const SAFE_HREF = /^(?:https?:|mailto:|#)/i
/** Tags that end a line of text when raw HTML is read as plain text (DOCX). */
const LINE_TAGS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'caption',
  'center',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'tfoot',
  'thead',
  'tr',
  'ul',
])
const CELL_TAGS = new Set(['td', 'th'])

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;')

interface Visitor {
  open(name: string, attributes: [string, string][]): void
  close(name: string): void
  text(text: string): void
}

/** Tags (lower-cased), decoded attributes and decoded text of an HTML fragment, in order. */
function tokenize(html: string, visitor: Visitor): void {
  let name = ''
  let attributes: [string, string][] = []
  let attributeName = ''
  let attributeValue = ''
  const endOpen = () => {
    if (name) visitor.open(name, attributes)
    name = ''
    attributes = []
  }
  const noop = () => undefined
  const tokenizer = new Tokenizer(
    { xmlMode: false, decodeEntities: true },
    {
      onopentagname(start, end) {
        name = html.slice(start, end).toLowerCase()
        attributes = []
      },
      onattribname(start, end) {
        attributeName = html.slice(start, end).toLowerCase()
        attributeValue = ''
      },
      onattribdata(start, end) {
        attributeValue += html.slice(start, end)
      },
      onattribentity(codepoint) {
        attributeValue += String.fromCodePoint(codepoint)
      },
      onattribend() {
        attributes.push([attributeName, attributeValue])
      },
      onopentagend: endOpen,
      onselfclosingtag: endOpen,
      onclosetag(start, end) {
        visitor.close(html.slice(start, end).toLowerCase())
      },
      ontext(start, end) {
        visitor.text(html.slice(start, end))
      },
      ontextentity(codepoint) {
        visitor.text(String.fromCodePoint(codepoint))
      },
      oncdata: noop,
      oncomment: noop,
      ondeclaration: noop,
      onend: noop,
      onprocessinginstruction: noop,
    },
  )
  tokenizer.write(html)
  tokenizer.end()
}

/** Counts open elements whose content is left out; their close tags bring the count back down. */
function skipper() {
  let depth = 0
  return {
    open(name: string): boolean {
      if (DROPPED_WITH_CONTENT.has(name) && !VOID.has(name)) depth++
      return depth > 0
    },
    close(name: string): boolean {
      const inside = depth > 0
      if (DROPPED_WITH_CONTENT.has(name) && depth > 0) depth--
      return inside
    },
    get skipping() {
      return depth > 0
    },
  }
}

export interface CleanHtml {
  html: string
  /** Tag names left out (`<script>`, `<img>`), once each. */
  leftOut: string[]
}

/** The fragment with only the allowlisted tags and attributes, text escaped anew. */
export function cleanHtml(fragment: string): CleanHtml {
  const out: string[] = []
  const leftOut = new Set<string>()
  const skip = skipper()
  tokenize(fragment, {
    open(name, attributes) {
      if (skip.open(name) || !KEPT_TAGS.has(name)) {
        leftOut.add(name)
        return
      }
      const kept = attributes
        .filter(
          ([key, value]) =>
            KEPT_ATTRIBUTES.has(key) || (name === 'a' && key === 'href' && SAFE_HREF.test(value.trim())),
        )
        .map(([key, value]) => ` ${key}="${escapeAttribute(value)}"`)
      out.push(`<${name}${kept.join('')}>`)
    },
    close(name) {
      if (skip.close(name) || !KEPT_TAGS.has(name) || VOID.has(name)) return
      out.push(`</${name}>`)
    },
    text(text) {
      if (!skip.skipping) out.push(escapeText(text))
    },
  })
  return { html: out.join(''), leftOut: [...leftOut] }
}

/** The text of a fragment as lines (block tags and `<br>` end one, a row's cells are joined with ` | `). */
export function htmlLines(fragment: string): string[] {
  const lines: string[] = []
  let line = ''
  const skip = skipper()
  const endLine = () => {
    const text = line.replace(/[ \t\r\n\f]+/g, ' ').trim()
    if (text) lines.push(text)
    line = ''
  }
  tokenize(fragment, {
    open(name) {
      if (skip.open(name)) return
      if (LINE_TAGS.has(name)) endLine()
      else if (CELL_TAGS.has(name) && line.trim()) line += ' | '
    },
    close(name) {
      if (!skip.close(name) && LINE_TAGS.has(name)) endLine()
    },
    text(text) {
      if (!skip.skipping) line += text
    },
  })
  endLine()
  return lines
}
