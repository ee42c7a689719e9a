import { ConvertError } from '../errors'
import { checkpoint } from '../limits'
import type { ConvertContext, FormatOutput } from '../types'
import { listZip, readZip } from '../zip/readZip'

const skipped = /(^|\/)(__MACOSX|\.DS_Store|Thumbs\.db|desktop\.ini)(\/|$)/

/** Each member converted on its own (recursively, depth-limited) under a `## path` heading. */
export async function convertZip(context: ConvertContext): Promise<FormatOutput> {
  const members = listZip(context.bytes).filter(
    (entry) => !entry.name.endsWith('/') && !skipped.test(entry.name),
  )
  const files = readZip(context.bytes, (name) => members.some((entry) => entry.name === name))
  const sections: string[] = []
  for (const entry of members) {
    await checkpoint(context.signal)
    const data = files.get(entry.name)
    if (!data) continue
    try {
      const result = await context.convertMember(entry.name, data)
      for (const warning of result.warnings) context.warn(`${entry.name}: ${warning}`)
      sections.push(`## ${entry.name}\n\n${result.markdown}`)
    } catch (error) {
      if (context.signal.aborted) throw error
      const reason = error instanceof ConvertError ? error.reason : 'could not be converted'
      context.warn(`${entry.name} skipped: ${reason}`)
      sections.push(`## ${entry.name}\n\n(skipped: ${reason})`)
    }
  }
  return { markdown: sections.join('\n\n') }
}
