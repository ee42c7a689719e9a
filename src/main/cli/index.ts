import { registerAutomationsCommand } from './commands/automations'
import { registerBridgeCommand } from './commands/bridge'
import { registerCalendarCommand } from './commands/calendar'
import { registerChatCommand } from './commands/chat'
import { registerConvertCommand } from './commands/convert'
import { registerEmailCommand } from './commands/email'
import { registerEvalCommand } from './commands/eval'
import { registerIndexCommand } from './commands/indexCommand'
import { registerMcpCommand } from './commands/mcp'
import { registerMemoryCommand } from './commands/memory'
import { registerModelsCommand } from './commands/models'
import { registerProvidersCommand } from './commands/providers'
import { registerSayCommand } from './commands/say'
import { registerServeCommand } from './commands/serve'
import { registerSettingsCommand } from './commands/settings'
import { registerToolCommand } from './commands/tool'
import { registerTranscribeCommand } from './commands/transcribe'
import { createProgram, EXIT_OK, exitCodeFor } from './program'
import { type CliStreams, withCliStreams } from './textIo'

/** Builds the `bureau` command tree. Each command loads its implementation lazily. */
export function buildCli() {
  const program = createProgram()
  registerServeCommand(program)
  registerToolCommand(program)
  registerSettingsCommand(program)
  registerConvertCommand(program)
  registerProvidersCommand(program)
  registerModelsCommand(program)
  registerChatCommand(program)
  registerSayCommand(program)
  registerTranscribeCommand(program)
  registerBridgeCommand(program)
  registerEvalCommand(program)
  registerIndexCommand(program)
  registerMcpCommand(program)
  registerEmailCommand(program)
  registerMemoryCommand(program)
  registerAutomationsCommand(program)
  registerCalendarCommand(program)
  return program
}

/**
 * Runs the command line `argv` (as `process.argv`: node, script, words…) and returns its exit code. With
 * `streams`, the command reads and writes those instead of the process's (tests run commands in-process).
 */
export async function runCli(argv: string[], streams?: CliStreams): Promise<number> {
  if (streams) return withCliStreams(streams, () => runCli(argv))
  const program = buildCli()
  try {
    await program.parseAsync(argv)
    return EXIT_OK
  } catch (error) {
    return exitCodeFor(error)
  }
}

export { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from './program'
export type { CliStreams } from './textIo'
