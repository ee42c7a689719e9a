import { z } from 'zod'
import type { ToolSpec } from '../../llm'

/** API mode: the agent tool that discloses a toolset's methods. */
export const OPEN_TOOLSET_TOOL = 'open_toolset'

/** `{"toolset": "spreadsheet"}`; a list or a comma list opens several at once. */
export const OpenToolsetArgs = z.object({
  toolset: z.preprocess(
    (value) => (typeof value === 'string' ? value.split(',').map((part) => part.trim()) : value),
    z.array(z.string().min(1)).min(1),
  ),
})

export function openToolsetSpec(names: readonly string[]): ToolSpec {
  return {
    name: OPEN_TOOLSET_TOOL,
    description:
      'Opens a toolset from the system prompt list: its methods become your tools from the next step on. Open what the task needs, before calling its methods.',
    parameters: {
      type: 'object',
      properties: { toolset: { type: 'string', enum: [...names], description: 'The toolset to open.' } },
      required: ['toolset'],
    },
  }
}
