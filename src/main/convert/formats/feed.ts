import { FormatProblem } from '../errors'
import { htmlToMarkdown } from '../markdown/htmlToMarkdown'
import { decodeText } from '../text/decodeText'
import type { ConvertContext, FormatOutput } from '../types'
import { childElements, type Element, firstDescendant, localName, parseXml, textOf } from '../xml/parseXml'

function field(element: Element, ...names: string[]): string {
  for (const name of names) {
    const found = childElements(element).find((child) => localName(child) === name || child.name === name)
    const value = found ? textOf(found).trim() : ''
    if (value) return value
  }
  return ''
}

function link(element: Element): string {
  for (const child of childElements(element)) {
    if (localName(child) !== 'link') continue
    const href = child.attribs.href ?? textOf(child).trim()
    if (href && (!child.attribs.rel || child.attribs.rel === 'alternate')) return href
  }
  return ''
}

function entryMarkdown(entry: Element, context: ConvertContext): string {
  const title = field(entry, 'title') || 'Untitled'
  const parts = [`## ${title.replace(/\s+/g, ' ')}`]
  const date = field(entry, 'pubDate', 'published', 'updated', 'date')
  const url = link(entry)
  const meta = [date && `Published: ${date}`, url && `Link: <${url}>`].filter(Boolean).join('  \n')
  if (meta) parts.push(meta)
  const body = field(entry, 'content:encoded', 'encoded', 'content', 'description', 'summary')
  if (body)
    parts.push(htmlToMarkdown(`<body>${body}</body>`, { dataImages: context.keepDataUris ? 'keep' : 'drop' }))
  return parts.join('\n\n')
}

/** RSS, RDF and Atom feeds: the channel as `#`, every item as `##` with its content as Markdown. */
export async function convertFeed(context: ConvertContext): Promise<FormatOutput> {
  const document = parseXml(decodeText(context.bytes).text)
  const root = childElements(document).find((element) => ['rss', 'feed', 'RDF'].includes(localName(element)))
  if (!root) throw new FormatProblem('damaged', 'the XML is not an RSS or Atom feed')
  const channel = localName(root) === 'rss' ? (firstDescendant(root, 'channel') ?? root) : root
  const title = field(channel, 'title')
  const description = field(channel, 'description', 'subtitle')
  const entries = [...childElements(channel), ...(channel === root ? [] : childElements(root))].filter(
    (element) => ['item', 'entry'].includes(localName(element)),
  )
  const parts = [
    title && `# ${title}`,
    description && htmlToMarkdown(`<body>${description}</body>`, { dataImages: 'drop' }),
  ]
  for (const entry of entries) parts.push(entryMarkdown(entry, context))
  const markdown = parts.filter(Boolean).join('\n\n')
  return title ? { markdown, title } : { markdown }
}
