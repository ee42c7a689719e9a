import { errorMessage } from '../sanitizeError'
import { runTerminalCommand } from '../terminal/terminal'
import type { ToolResult, ToolSession } from '../types'
import { failure, type InvokeOptions, invokeResolved } from './invokeMethod'
import { resolveMethod } from './resolveMethod'

export type { InvokeOptions } from './invokeMethod'

/** The name of the CLI-mode tool; `invoke(session, 'cli', {command})` runs a terminal command. */
export const CLI_TOOL_NAME = 'cli'

function cliCommandOf(rawArgs: unknown): string | undefined {
  if (typeof rawArgs === 'string') {
    const text = rawArgs.trim()
    if (!text.startsWith('{')) return text
    try {
      return cliCommandOf(JSON.parse(text))
    } catch {
      return undefined
    }
  }
  if (rawArgs && typeof rawArgs === 'object' && 'command' in rawArgs) {
    const command = (rawArgs as { command: unknown }).command
    return Array.isArray(command) ? command.join(' ') : typeof command === 'string' ? command : undefined
  }
  return undefined
}

/**
 * The one entry point for calling a tool, in both interaction modes, from the agent, the CLI and
 * the UI. Resolves the name, repairs and validates the arguments, runs the method and returns a
 * typed result. It never throws and never returns a stack trace.
 */
export async function invoke(
  session: ToolSession,
  name: string,
  rawArgs: unknown,
  options: InvokeOptions = {},
): Promise<ToolResult> {
  const started = performance.now()
  try {
    if (session.disposed) return failure(started, 'session', 'UNAVAILABLE', 'This tool session has ended.')
    if (
      String(name ?? '')
        .trim()
        .toLowerCase() === CLI_TOOL_NAME
    ) {
      const command = cliCommandOf(rawArgs)
      if (command === undefined) {
        return failure(
          started,
          'arguments',
          'VALIDATION_FAILED',
          'The cli tool takes {"command": "<toolset> <method> [arguments]"}; run {"command": "help"} for the list.',
        )
      }
      return await runTerminalCommand(session, command, options)
    }
    const resolution = resolveMethod(session.registry, String(name ?? ''))
    if (!resolution.ok) return failure(started, 'resolve', 'NOT_FOUND', resolution.error)
    return await invokeResolved(session, resolution.target, rawArgs, options, started)
  } catch (error) {
    return failure(started, 'run', 'INTERNAL', `The tool call failed: ${errorMessage(error)}`)
  }
}
