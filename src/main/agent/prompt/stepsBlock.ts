import type { Toolset } from '../../tools'
import { DONE_TOOL, LAUNCH_SUBAGENT_TOOL, PROVIDE_SUBAGENT_INPUT_TOOL } from '../loop/agentTools'

export interface StepsBlockOptions {
  subagents: readonly Toolset[]
  /** Toolsets the prompt's toolset list already describes: their delegation lines do not say it again. */
  listed?: ReadonlySet<string>
  /** Sub-agents finish with a result or pause with a question instead of answering the user. */
  role: 'agent' | 'subagent'
  /** With the JSON protocol every answer is a JSON object, so the fast path is `done` itself. */
  protocol: 'native' | 'json'
}

/**
 * One line per sub-agent: `- Delegation to the sub-agent of: <summary> (toolset "<name>")`, or only
 * `toolset "<name>"` when the toolset list above already gives its summary (said once, not twice).
 */
export function delegationLines(
  subagents: readonly Toolset[],
  listed: ReadonlySet<string> = new Set(),
): string[] {
  return subagents.map((toolset) =>
    listed.has(toolset.name)
      ? `- Delegation to the sub-agent of: toolset "${toolset.name}"`
      : `- Delegation to the sub-agent of: ${toolset.summary} (toolset "${toolset.name}")`,
  )
}

export function stepsBlock(options: StepsBlockOptions): string {
  const lines = ['## Steps']
  if (options.role === 'agent') {
    lines.push(
      options.protocol === 'json'
        ? `1. If the request is a simple question or small talk that needs no tool, answer it at once with \`${DONE_TOOL}\` and your answer as the message.`
        : '1. If the request is a simple question or small talk that needs no tool, answer it directly in plain text without calling any tool.',
    )
  } else {
    lines.push('1. You are a sub-agent: do the task you were given with your tools, nothing else.')
  }
  lines.push(
    '2. Otherwise decide which toolsets and methods you need, call one method at a time and read each result before the next call.',
    '3. When a call fails, read the error: it says what to change. Correct the call; do not repeat it unchanged.',
  )
  if (options.role === 'agent') {
    lines.push(
      `4. When the task is complete, call \`${DONE_TOOL}\` with a short message for the user and, in \`attachments\`, the agent paths of the files the user should get.`,
    )
  } else {
    lines.push(
      `4. When the task is complete, call \`${DONE_TOOL}\` with your result in \`message\` (and file paths in \`attachments\`). If you cannot go on without more information, call \`${DONE_TOOL}\` with \`question\` instead; you will get the answer and continue.`,
    )
  }
  if (options.subagents.length > 0) {
    lines.push(
      `5. You can hand a self-contained part of the task to a sub-agent with \`${LAUNCH_SUBAGENT_TOOL}\` {toolset, task}. It works in its own context and returns its result, or a question you answer with \`${PROVIDE_SUBAGENT_INPUT_TOOL}\` {sessionId, input}.`,
      ...delegationLines(options.subagents, options.listed),
    )
  }
  return lines.join('\n')
}
