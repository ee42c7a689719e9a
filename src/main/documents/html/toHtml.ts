import type { Element, ElementContent, RootContent as HastContent, Root as HastRoot } from 'hast'
import { toHtml } from 'hast-util-to-html'
import type { Code, Heading, Image, Link, Root } from 'mdast'
import { defaultHandlers, type Handlers, type State, toHast } from 'mdast-util-to-hast'
import type { DocumentAssets } from '../markdown/assets'
import { collect, headingIds, isHeading, isPageBreak, textOf } from '../markdown/parseMarkdown'
import { printCss } from './printCss'
import { cleanHtml } from './rawHtml'

export interface HtmlOptions {
  title?: string
  toc: boolean
  pageSize: string
  margins: string
}

const SAFE_URL = /^(https?:|mailto:|#)/i
const MIME = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  svg: 'image/svg+xml',
  webp: 'image/webp',
}

function element(tagName: string, properties: Element['properties'], children: ElementContent[]): Element {
  return { type: 'element', tagName, properties, children }
}
const text = (value: string): ElementContent => ({ type: 'text', value })

function handlers(assets: DocumentAssets, ids: Map<Heading, string>, leftOut: Set<string>): Handlers {
  return {
    code(state: State, node: Code) {
      const drawn = assets.diagrams.get(node)
      if (!drawn?.ok) return defaultHandlers.code(state, node)
      // The SVG comes from mermaid (securityLevel strict), not from the Markdown; the print page runs no script.
      return element('figure', { className: ['diagram'] }, [
        { type: 'raw', value: drawn.svg } as ElementContent,
      ])
    },
    image(_state: State, node: Image) {
      const loaded = assets.images.get(node)
      if (!loaded)
        return element('span', { className: ['missing-image'] }, [text(`[image: ${node.alt || node.url}]`)])
      const src = `data:${MIME[loaded.type]};base64,${Buffer.from(loaded.bytes).toString('base64')}`
      return element('img', { src, alt: node.alt ?? '', ...(node.title ? { title: node.title } : {}) }, [])
    },
    link(state: State, node: Link) {
      const children = state.all(node)
      if (!SAFE_URL.test(node.url)) return element('span', {}, children)
      return element('a', { href: node.url }, children)
    },
    heading(state: State, node: Heading) {
      const result = defaultHandlers.heading(state, node)
      result.properties = { ...result.properties, id: ids.get(node) ?? '' }
      return result
    },
    paragraph(state: State, node) {
      if (isPageBreak(node)) return element('div', { className: ['page-break'] }, [])
      return defaultHandlers.paragraph(state, node)
    },
    html(_state: State, node) {
      if (isPageBreak(node)) return element('div', { className: ['page-break'] }, [])
      // Raw HTML goes in through the allowlist only; the print page runs no script and fetches nothing.
      const clean = cleanHtml(node.value)
      for (const tag of clean.leftOut) leftOut.add(tag)
      return clean.html ? ({ type: 'raw', value: clean.html } as ElementContent) : undefined
    },
  }
}

function tableOfContents(headings: Heading[], ids: Map<Heading, string>): Element {
  const items = headings
    .filter((h) => h.depth <= 3)
    .map((h) =>
      element('li', { className: [`toc-${h.depth}`] }, [
        element('a', { href: `#${ids.get(h)}` }, [text(textOf(h))]),
      ]),
    )
  return element('nav', { className: ['toc'] }, [
    element('h2', {}, [text('Contents')]),
    element('ol', {}, items),
  ])
}

const DIR_AUTO = new Set([
  'p',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'td',
  'th',
  'blockquote',
  'figcaption',
])

/** Lets Chromium pick the direction of each block from its first strong character (Arabic, Hebrew). */
function markDirections(node: HastRoot | HastContent): void {
  if (node.type === 'element' && DIR_AUTO.has(node.tagName)) node.properties.dir = 'auto'
  if ('children' in node) for (const child of node.children) markDirections(child)
}

/** Says which tags of the Markdown's raw HTML were left out, if any. */
export function rawHtmlWarning(leftOut: Iterable<string>): string | undefined {
  const tags = [...leftOut].map((tag) => `<${tag}>`)
  if (tags.length === 0) return undefined
  return `raw HTML in the Markdown: ${tags.join(', ')} left out (documents keep formatting and layout tags only; pictures go in as ![alt](path))`
}

/**
 * The whole print page: one HTML string, styles inline, pictures as data URIs, no script;
 * `warnings` hears what of the Markdown's raw HTML was left out.
 */
export function documentHtml(
  root: Root,
  assets: DocumentAssets,
  options: HtmlOptions,
  warnings: string[] = [],
): string {
  const headings = collect(root, isHeading)
  const ids = headingIds(headings)
  const leftOut = new Set<string>()
  const body = toHast(root, {
    handlers: handlers(assets, ids, leftOut),
    allowDangerousHtml: false,
  }) as HastRoot
  const warning = rawHtmlWarning(leftOut)
  if (warning) warnings.push(warning)
  markDirections(body)
  const children: HastContent[] = []
  if (options.title)
    children.push(element('h1', { className: ['doc-title'], dir: 'auto' }, [text(options.title)]))
  if (options.toc) children.push(tableOfContents(headings, ids))
  for (const child of body.children) children.push(child)
  const html = toHtml({ type: 'root', children }, { allowDangerousHtml: true })
  const title = toHtml({ type: 'text', value: options.title ?? 'Document' })
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'"><title>${title}</title><style>${printCss(options)}</style></head><body>${html}</body></html>`
}
