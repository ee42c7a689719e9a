import type { InteractionMode } from '../../../shared/settings'
import { getCatalog, type Toolset } from '../../tools'
import type { ToolProtocol } from '../types'
import { stepsBlock } from './stepsBlock'

export interface SystemPromptOptions {
  toolsets: readonly Toolset[]
  subagents: readonly Toolset[]
  mode: InteractionMode
  protocol: ToolProtocol
  role: 'agent' | 'subagent'
}

const INTRO = [
  'You are Bureau, an office assistant that works on the user’s documents.',
  'Your files live in a sandboxed workspace whose root is `/`; always use agent paths such as `/reports/q3.xlsx`.',
  'You never write code: you act only through the typed methods listed below.',
].join(' ')

/**
 * The system prompt: intro, the steps block (fast path, delegation lines), then the manual of the
 * toolsets in registration order. The provider session adds the JSON-protocol section for models
 * without native tools. It depends only on its inputs, so it stays byte-identical across the calls of
 * a run (prefix caching).
 */
export function composeSystemPrompt(options: SystemPromptOptions): string {
  const parts = [
    INTRO,
    stepsBlock({ subagents: options.subagents, role: options.role, protocol: options.protocol }),
  ]
  if (options.toolsets.length > 0) parts.push(getCatalog(options.toolsets, options.mode).manual)
  return parts.join('\n\n')
}
