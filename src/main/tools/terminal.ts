import { elapsed, failure, type InvokeOptions, invokeResolved } from './invokeMethod'
import { errorMessage } from './sanitizeError'
import { methodHelp, toolsetHelp, topHelp } from './terminalHelp'
import { parseTerminalArgv, tokenizeCommand } from './terminalParse'
import type { ToolResult, ToolSession } from './types'

/** Runs already-split terminal words (as `bureau tool` receives them from the OS shell). */
export async function runTerminalArgv(
  session: ToolSession,
  argv: readonly string[],
  options: InvokeOptions = {},
  started = performance.now(),
): Promise<ToolResult> {
  try {
    const command = parseTerminalArgv(session.registry, argv)
    switch (command.kind) {
      case 'help': {
        const text = !command.toolset
          ? topHelp(session.registry.list())
          : command.method
            ? methodHelp(command.toolset, command.method)
            : toolsetHelp(command.toolset)
        return { ok: true, value: text, durationMs: elapsed(started), help: true }
      }
      case 'error':
        return failure(
          started,
          command.stage,
          command.stage === 'resolve' ? 'NOT_FOUND' : 'VALIDATION_FAILED',
          command.error,
        )
      case 'call':
        return await invokeResolved(
          session,
          command.target,
          command.args,
          { ...options, style: 'cli' },
          started,
        )
    }
  } catch (error) {
    return failure(started, 'run', 'INTERNAL', `The command failed: ${errorMessage(error)}`)
  }
}

/** CLI mode: runs one command line such as `spreadsheet set_cell_value /a.xlsx --sheet Sales --cell A1 --value 5`. */
export async function runTerminalCommand(
  session: ToolSession,
  commandLine: string,
  options: InvokeOptions = {},
): Promise<ToolResult> {
  const started = performance.now()
  const tokens = tokenizeCommand(String(commandLine ?? ''))
  if (!tokens.ok) return failure(started, 'usage', 'VALIDATION_FAILED', tokens.error)
  return runTerminalArgv(session, tokens.tokens, options, started)
}
