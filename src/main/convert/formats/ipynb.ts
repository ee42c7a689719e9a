import { z } from 'zod'
import { FormatProblem } from '../errors'
import type { ConvertContext, FormatOutput } from '../types'
import { parseJson } from './json'

const Source = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (Array.isArray(value) ? value.join('') : value))

const Output = z
  .object({
    output_type: z.string(),
    text: Source.optional(),
    data: z.record(z.string(), z.unknown()).optional(),
    ename: z.string().optional(),
    evalue: z.string().optional(),
  })
  .loose()

const Notebook = z.object({
  cells: z.array(
    z
      .object({ cell_type: z.string(), source: Source.default(''), outputs: z.array(Output).optional() })
      .loose(),
  ),
  metadata: z
    .object({
      title: z.string().optional(),
      kernelspec: z.object({ language: z.string().optional() }).loose().optional(),
      language_info: z.object({ name: z.string().optional() }).loose().optional(),
    })
    .loose()
    .optional(),
})

function outputText(output: z.infer<typeof Output>): string | undefined {
  if (output.text) return output.text
  if (output.ename) return `${output.ename}: ${output.evalue ?? ''}`
  const plain = output.data?.['text/plain']
  if (typeof plain === 'string') return plain
  if (Array.isArray(plain)) return plain.join('')
  return undefined
}

/** Markdown cells as they are, code cells fenced in the kernel's language, text outputs after them. */
export async function convertNotebook(context: ConvertContext): Promise<FormatOutput> {
  const parsed = Notebook.safeParse(parseJson(context))
  if (!parsed.success) throw new FormatProblem('damaged', 'the notebook has no valid "cells" list')
  const notebook = parsed.data
  const language =
    notebook.metadata?.language_info?.name ?? notebook.metadata?.kernelspec?.language ?? 'python'
  const parts: string[] = []
  for (const cell of notebook.cells) {
    const source = cell.source.trim()
    if (cell.cell_type === 'markdown' && source) parts.push(source)
    else if (cell.cell_type === 'code') {
      if (source) parts.push(`\`\`\`${language}\n${source}\n\`\`\``)
      const outputs = (cell.outputs ?? [])
        .map(outputText)
        .filter((text): text is string => Boolean(text?.trim()))
      if (outputs.length > 0) parts.push(`Output:\n\n\`\`\`\n${outputs.join('\n').trimEnd()}\n\`\`\``)
    } else if (cell.cell_type === 'raw' && source) parts.push(`\`\`\`\n${source}\n\`\`\``)
  }
  const title = notebook.metadata?.title ?? /^#\s+(.+)$/m.exec(parts.join('\n'))?.[1]?.trim()
  const markdown = parts.join('\n\n')
  return title ? { markdown, title } : { markdown }
}
