import type { InteractionMode } from '../../../shared/settings'
import { CLI_TOOL_NAME, type Toolset, toolsetIndex } from '../../tools'
import { OPEN_TOOLSET_TOOL } from '../disclosure/openToolsetTool'
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
  'Files live in a sandboxed workspace whose root is `/`: every path parameter takes an agent path such as `/reports/q3.xlsx`.',
  'You act only through the methods of your toolsets; you never write code.',
].join(' ')

/** How the model reaches a toolset's methods in each mode: the toolsets' manuals are never in here. */
function howToCall(mode: InteractionMode, role: SystemPromptOptions['role']): string {
  if (mode === 'cli')
    return [
      `Call methods with the \`${CLI_TOOL_NAME}\` tool: {"command": "<toolset> <method> [arguments] [--option value]"}. Leading required parameters are positional; quote values with spaces; lists as a,b,c or JSON.`,
      'Before the first call of a toolset, run `<toolset> --help` (its methods with their usage); `<toolset> <method> --help` shows one method’s parameters, defaults, an example and what it returns.',
    ].join(' ')
  if (role === 'subagent') return 'The methods of your toolset are your tools.'
  return `The methods of an open toolset are your tools. Open the ones a task needs with \`${OPEN_TOOLSET_TOOL}\` {toolset} first.`
}

/**
 * The system prompt: intro, the toolsets one line each with how to reach their methods, then the
 * steps block (fast path, delegation lines). The provider session adds the JSON-protocol section for
 * models without native tools. It depends only on its inputs, so it stays byte-identical across the
 * calls of a run and the turns of a conversation (prefix caching).
 */
export function composeSystemPrompt(options: SystemPromptOptions): string {
  const parts = [INTRO]
  if (options.toolsets.length > 0)
    parts.push(
      ['## Toolsets', toolsetIndex(options.toolsets), howToCall(options.mode, options.role)].join('\n'),
    )
  parts.push(
    stepsBlock({
      subagents: options.subagents,
      listed: new Set(options.toolsets.map((t) => t.name)),
      role: options.role,
      protocol: options.protocol,
    }),
  )
  return parts.join('\n\n')
}

/**
 * Today's date and the user's zone, as a section after the toolsets. It changes once a day, so a
 * conversation's prompt stays byte-identical between calls (prefix caching) except across midnight.
 */
export function clockSection(clock: { timeZone: string; now?: () => Date } | undefined): string {
  if (!clock) return ''
  let zone = clock.timeZone
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone })
  } catch {
    zone = 'UTC'
  }
  const now = clock.now?.() ?? new Date()
  const day = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(now)
  const iso = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now)
  return `\n\n## Today\nToday is ${day} (${iso}); the user’s time zone is ${zone}. Read dates and times the user gives in that zone unless they name another.`
}
