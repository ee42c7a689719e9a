import { gfm } from '@joplin/turndown-plugin-gfm'
import TurndownService from 'turndown'
import { descendants, moveChildren, removeNode, replaceNode } from './domEdit'
import {
  imageAlt,
  imageMarkdown,
  linkTarget,
  linkText,
  listItemMarkdown,
  listItemPrefix,
} from './inlineSyntax'
import { parseHtml } from './parseHtml'
import { unwrapRedirect } from './redirects'
import { pinTableRows } from './tableRows'
import { tidyMarkdown } from './tidyMarkdown'

/** What happens to `<img src="data:...">`: kept, shortened to `data:image/png;base64...`, or dropped. */
export type DataImagePolicy = 'keep' | 'placeholder' | 'drop'

export interface HtmlToMarkdownOptions {
  dataImages: DataImagePolicy
  /** Hears what was left out or changed on the way (HTML nested too deeply). */
  warnings?: string[]
}

const droppedTags = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'canvas',
  'svg',
  'math',
])
const blockInCell = new Set([
  'p',
  'div',
  'ul',
  'ol',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'hr',
  'dl',
  'dt',
  'dd',
])

/** A nested table as one line: its cells' text, spaced so that neighbouring cells do not run together. */
function tableText(table: Element): string {
  const cells = descendants(table, (_element, name) => name === 'td' || name === 'th')
  if (cells.length === 0) return table.textContent ?? ''
  return cells.map((cell) => (cell.textContent ?? '').replace(/\s+/g, ' ').trim()).join(' ')
}

/** Markdown tables cannot hold blocks: lists, paragraphs and headings inside cells become lines. */
function flattenCell(cell: Element): void {
  if (!cell.firstChild) return
  const document = cell.ownerDocument
  const nestedTables: Element[] = []
  const blocks = descendants(cell, (element, name) => {
    if (name === 'table') nestedTables.push(element)
    return blockInCell.has(name)
  })
  if (nestedTables.length === 0 && blocks.length === 0) return
  for (const nested of nestedTables) {
    replaceNode(nested, document.createTextNode(` ${tableText(nested)} `))
  }
  for (const block of blocks.reverse()) {
    const fragment = document.createDocumentFragment()
    if (block.tagName === 'LI') fragment.appendChild(document.createTextNode('• '))
    if (/^H\d$/.test(block.tagName)) {
      const strong = document.createElement('strong')
      moveChildren(block, strong)
      fragment.appendChild(strong)
    } else {
      moveChildren(block, fragment)
    }
    if (block.nextSibling || block.tagName === 'LI') fragment.appendChild(document.createElement('br'))
    replaceNode(block, fragment)
  }
}

/** A table without header cells gets its first row promoted, which is what the reader expects. */
function normaliseTable(table: HTMLTableElement): void {
  const cells = descendants(table, (_element, name) => name === 'td' || name === 'th')
  for (const cell of cells) flattenCell(cell)
  const first = table.rows[0]
  // Asked after flattening: header cells of nested tables, now text, do not count.
  if (!first || descendants(table, (_element, name) => name === 'th').length > 0) return
  for (const cell of Array.from(first.cells)) {
    const th = table.ownerDocument.createElement('th')
    moveChildren(cell, th)
    const colspan = cell.getAttribute('colspan')
    if (colspan) th.setAttribute('colspan', colspan)
    replaceNode(cell, th)
  }
}

function prepare(root: Element | Document): void {
  const dropped: Element[] = []
  const tables: Element[] = []
  const links: Element[] = []
  descendants(root, (element, name) => {
    if (droppedTags.has(name)) dropped.push(element)
    else if (name === 'table') tables.push(element)
    else if (name === 'a' && element.hasAttribute('href')) links.push(element)
    return false
  })
  for (const element of dropped) removeNode(element)
  for (const table of tables.reverse()) normaliseTable(table as HTMLTableElement)
  for (const link of links) {
    const href = link.getAttribute('href') ?? ''
    const target = /^\s*javascript:/i.test(href) ? '' : unwrapRedirect(href)
    if (target) link.setAttribute('href', target)
    else link.removeAttribute('href')
  }
}

function createService(options: HtmlToMarkdownOptions): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '*',
    emDelimiter: '*',
    strongDelimiter: '**',
    hr: '---',
  })
  service.use(gfm)
  service.addRule('image', {
    filter: 'img',
    replacement: (_content, node) => {
      const src = node.getAttribute('src') ?? ''
      const alt = imageAlt(node.getAttribute('alt') ?? '')
      if (!src) return ''
      if (/^data:/i.test(src)) {
        if (options.dataImages === 'drop') return ''
        if (options.dataImages === 'placeholder')
          return `![${alt}](${src.replace(/^(data:[^;,]*(;base64)?),.*$/is, '$1...')})`
      }
      return imageMarkdown(alt, src)
    },
  })
  // Like turndown's rule, but `* item` / `1. item` instead of its wide `*   item` padding.
  service.addRule('listItem', {
    filter: 'li',
    replacement: (content, node) => {
      const parent = node.parentNode as Element | null
      const ordered = parent?.nodeName === 'OL'
      const index = ordered && parent ? Array.prototype.indexOf.call(parent.children, node) : 0
      const prefix = listItemPrefix(ordered, parent?.getAttribute('start'), index)
      return listItemMarkdown(prefix, content, node.nextSibling !== null)
    },
  })
  service.addRule('link', {
    filter: (node) => node.nodeName === 'A',
    replacement: (content, node) => {
      // Block content inside a link would break the link over several lines.
      const text = linkText(content)
      const href = node.getAttribute('href')
      if (!href || !text) return text
      const title = node.getAttribute('title')?.replace(/\s+/g, ' ').trim()
      const titlePart = title ? ` "${title.replace(/"/g, '\\"')}"` : ''
      return `[${text}](${linkTarget(href)}${titlePart})`
    },
  })
  // Added last, so asked first about every node; it converts nothing (turndown works on its own
  // copy of the DOM, so this is where the copy's tables can be reached).
  service.addRule('tableRows', {
    filter: (node) => {
      pinTableRows(node)
      return false
    },
    replacement: () => '',
  })
  return service
}

const services = new Map<DataImagePolicy, TurndownService>()

/** Converts HTML (a string or a DOM node the caller already cleaned) to GFM Markdown. */
export function htmlToMarkdown(input: string | Element | Document, options: HtmlToMarkdownOptions): string {
  const root = typeof input === 'string' ? parseHtml(input, options.warnings) : input
  prepare(root)
  let service = services.get(options.dataImages)
  if (!service) {
    service = createService(options)
    services.set(options.dataImages, service)
  }
  return tidyMarkdown(service.turndown(root as HTMLElement))
}
