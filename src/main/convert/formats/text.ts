import { decodeText } from '../text/decodeText'
import type { ConvertContext, FormatOutput } from '../types'

/** Plain text and Markdown pass through, decoded from whatever encoding they use. */
export async function convertText(context: ConvertContext): Promise<FormatOutput> {
  const { text, encoding } = decodeText(context.bytes)
  if (encoding !== 'utf-8') context.warn(`decoded as ${encoding}`)
  const body = text.replace(/\r\n?/g, '\n').replace(/^\uFEFF/, '')
  const lower = context.name.toLowerCase()
  if (context.format === 'text' && /\.(xml|svg|xsd|xsl|plist)$/.test(lower))
    return { markdown: `\`\`\`xml\n${body.trimEnd()}\n\`\`\`` }
  const heading = context.format === 'markdown' ? /^#\s+(.+)$/m.exec(body)?.[1]?.trim() : undefined
  return heading ? { markdown: body.trim(), title: heading } : { markdown: body.trim() }
}
