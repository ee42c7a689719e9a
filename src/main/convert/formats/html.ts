import { removeNode } from '../markdown/domEdit'
import { htmlToMarkdown } from '../markdown/htmlToMarkdown'
import { parseHtml } from '../markdown/parseHtml'
import { decodeText } from '../text/decodeText'
import type { ConvertContext, FormatOutput } from '../types'

const boilerplateTags =
  'nav, header, footer, aside, form, button, input, select, textarea, dialog, menu, label'
// banner/contentinfo are left out: inside the main content sites misuse them for real content.
const boilerplateRoles = ['navigation', 'search', 'complementary', 'dialog', 'menu', 'menubar', 'toolbar']
const boilerplateName =
  /(^|[-_\s])(nav|navbar|navigation|menu|sidebar|footer|header|breadcrumbs?|cookie|consent|banner|advert|ads|share|social|popup|modal|skip|toc|noprint|printfooter|catlinks|jump)([-_\s]|$)/i
const mainCandidates = [
  'main',
  '[role="main"]',
  'article',
  '#content',
  '#main-content',
  '#main',
  '.post-content',
  '.entry-content',
]

/** Reads the charset a page declares (BOM, then meta), falling back to content sniffing. */
export function decodeHtml(bytes: Uint8Array): string {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 4096))
  const declared = /<meta[^>]+charset\s*=\s*["']?\s*([\w-]+)/i.exec(head)?.[1]
  const hasBom = bytes[0] === 0xef || bytes[0] === 0xff || bytes[0] === 0xfe
  if (declared && !hasBom) {
    try {
      return new TextDecoder(declared.toLowerCase()).decode(bytes)
    } catch {
      // an unknown label: sniff instead
    }
  }
  return decodeText(bytes).text
}

function isHidden(element: Element): boolean {
  if (element.hasAttribute('hidden') || element.getAttribute('aria-hidden') === 'true') return true
  return /display\s*:\s*none|visibility\s*:\s*hidden/i.test(element.getAttribute('style') ?? '')
}

function isBoilerplate(element: Element): boolean {
  const role = element.getAttribute('role')
  if (role && boilerplateRoles.includes(role)) return true
  const names = `${element.id} ${element.getAttribute('class') ?? ''}`
  // Tab strips are named like menus but hold section titles the reader needs.
  return boilerplateName.test(names) && !element.querySelector('[role="tab"]')
}

/** Removes navigation, page chrome and hidden parts; keeps the tree otherwise intact. */
function removeBoilerplate(root: Element): void {
  for (const element of Array.from(root.querySelectorAll(boilerplateTags))) removeNode(element)
  for (const element of Array.from(root.querySelectorAll('*'))) {
    if (element === root || !root.contains(element)) continue
    if (isHidden(element) || isBoilerplate(element)) removeNode(element)
  }
}

function textLength(element: Element | null | undefined): number {
  return element?.textContent?.replace(/\s+/g, ' ').length ?? 0
}

/** The element holding the page's main content: the first landmark with most of the text. */
function mainContent(document: Document): Element | null {
  const body = document.body ?? document.documentElement
  const total = textLength(body)
  for (const selector of mainCandidates) {
    const matches = Array.from(document.querySelectorAll(selector))
    if (selector === 'article' && matches.length !== 1) continue
    const candidate = matches[0]
    if (candidate && textLength(candidate) >= total * 0.3) return candidate
  }
  return body
}

function pageTitle(document: Document): string | undefined {
  const og = document.querySelector('meta[property="og:title"]')?.getAttribute('content')
  const title =
    og || document.querySelector('title')?.textContent || document.querySelector('h1')?.textContent
  const clean = title?.replace(/\s+/g, ' ').trim()
  return clean || undefined
}

/** The page's main content as Markdown, without navigation, boilerplate or inline `data:` images. */
export async function convertHtml(context: ConvertContext): Promise<FormatOutput> {
  const document = parseHtml(decodeHtml(context.bytes))
  const title = pageTitle(document)
  for (const element of Array.from(document.querySelectorAll('script, style, noscript, template')))
    removeNode(element)
  const main = mainContent(document)
  if (!main) return { markdown: '' }
  removeBoilerplate(main)
  const markdown = htmlToMarkdown(main, { dataImages: context.keepDataUris ? 'keep' : 'drop' })
  return title ? { markdown, title } : { markdown }
}
