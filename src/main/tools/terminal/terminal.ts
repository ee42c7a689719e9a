import { elapsed, failure, type InvokeOptions, invokeResolved } from '../call/invokeMethod'
import { errorMessage } from '../sanitizeError'
import type { ToolResult, ToolSession } from '../types'
import { methodHelp, toolsetHelp, topHelp } from './terminalHelp'
import { parseTerminalArgv, tokenizeCommand } from './terminalParse'

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
  const line = String(commandLine ?? '')
  const withObject = splitWithJsonObject(line)
  if (withObject) return runTerminalArgv(session, withObject, options, started)
  const tokens = tokenizeCommand(line)
  if (!tokens.ok) return failure(started, 'usage', 'VALIDATION_FAILED', tokens.error)
  return runTerminalArgv(session, tokens.tokens, options, started)
}

/**
 * `documents create_docx {"path": "/a.docx", "markdown": "# Hi"}`: a line ending in one JSON object
 * keeps the object whole as its last word (shell splitting would strip its quotes and cut it at each
 * space), so it can be read as the named arguments.
 */
function splitWithJsonObject(line: string): string[] | undefined {
  const brace = line.indexOf('{')
  const tail = line.slice(brace).trim()
  if (brace <= 0 || !tail.endsWith('}')) return undefined
  try {
    const value: unknown = JSON.parse(tail)
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  } catch {
    return undefined
  }
  const head = tokenizeCommand(line.slice(0, brace))
  return head.ok && head.tokens.length > 0 ? [...head.tokens, tail] : undefined
}
