import { FormatProblem } from '../errors'
import { decodeText } from '../text/decodeText'
import type { ConvertContext, FormatOutput } from '../types'

export function parseJson(context: ConvertContext): unknown {
  const { text } = decodeText(context.bytes)
  try {
    return JSON.parse(text)
  } catch (error) {
    const detail = error instanceof SyntaxError ? `: ${error.message.slice(0, 120)}` : ''
    throw new FormatProblem('damaged', `the file is not valid JSON${detail}`)
  }
}

/** JSON is shown as a fenced, pretty-printed block: the model reads structure better than a flattened table. */
export async function convertJson(context: ConvertContext): Promise<FormatOutput> {
  const value = parseJson(context)
  return { markdown: `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\`` }
}
