import { posix } from 'node:path'
import { FormatProblem } from '../errors'
import { checkpoint } from '../limits'
import { htmlToMarkdown } from '../markdown/htmlToMarkdown'
import { parseHtml } from '../markdown/parseHtml'
import type { ConvertContext, FormatOutput } from '../types'
import { isCompleteXml } from '../xml/completeXml'
import { attribute, descendants, firstDescendant, parseXml, textOf } from '../xml/parseXml'
import { readZip, zipText } from '../zip/readZip'

const metadataFields: [string, string][] = [
  ['creator', 'Authors'],
  ['publisher', 'Publisher'],
  ['date', 'Date'],
  ['language', 'Language'],
  ['identifier', 'Identifier'],
  ['description', 'Description'],
]

/** EPUB: metadata block, then the spine's chapters in reading order. */
export async function convertEpub(context: ConvertContext): Promise<FormatOutput> {
  const files = readZip(context.bytes)
  const complete = (text: string | undefined) =>
    text !== undefined && isCompleteXml(text) ? text : undefined
  const container = complete(zipText(files, 'META-INF/container.xml'))
  const rootPath = container && firstDescendant(parseXml(container), 'rootfile')?.attribs['full-path']
  const opfText = rootPath ? complete(zipText(files, rootPath)) : undefined
  if (!rootPath || !opfText) throw new FormatProblem('damaged', 'the EPUB has no readable package document')
  const opf = parseXml(opfText)
  const base = posix.dirname(rootPath)
  const metadata = firstDescendant(opf, 'metadata')
  const title = metadata ? textOf(firstDescendant(metadata, 'title')).trim() : ''
  const lines: string[] = title ? [`**Title:** ${title}`] : []
  for (const [field, label] of metadataFields) {
    const values = metadata
      ? descendants(metadata, field)
          .map((element) => textOf(element).trim())
          .filter(Boolean)
      : []
    if (values.length > 0) lines.push(`**${label}:** ${values.join(', ')}`)
  }
  const manifest = new Map(
    descendants(opf, 'item').map((item) => [
      item.attribs.id ?? '',
      {
        href: item.attribs.href ?? '',
        type: item.attribs['media-type'] ?? '',
        nav: /\bnav\b/.test(item.attribs.properties ?? ''),
      },
    ]),
  )
  const chapters: string[] = []
  for (const reference of descendants(opf, 'itemref')) {
    await checkpoint(context.signal)
    const item = manifest.get(attribute(reference, 'idref') ?? '')
    // The navigation document only repeats the chapter titles.
    if (!item || item.nav || !/html/.test(item.type)) continue
    const html = zipText(files, posix.normalize(posix.join(base, decodeURIComponent(item.href))))
    if (!html) continue
    if (!isCompleteXml(html)) context.warn(`${item.href} is damaged or truncated; part of it may be missing`)
    const document = parseHtml(html)
    const markdown = htmlToMarkdown(document.body ?? document, {
      dataImages: context.keepDataUris ? 'keep' : 'drop',
    })
    if (markdown) chapters.push(markdown)
  }
  const markdown = [lines.join('\n'), ...chapters].filter(Boolean).join('\n\n')
  return title ? { markdown, title } : { markdown }
}
