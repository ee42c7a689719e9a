import { registerBridgeCommand } from './commands/bridge'
import { registerCalendarCommand } from './commands/calendar'
import { registerChatCommand } from './commands/chat'
import { registerConvertCommand } from './commands/convert'
import { registerEmailCommand } from './commands/email'
import { registerEvalCommand } from './commands/eval'
import { registerIndexCommand } from './commands/indexCommand'
import { registerMcpCommand } from './commands/mcp'
import { registerModelsCommand } from './commands/models'
import { registerProvidersCommand } from './commands/providers'
import { registerSayCommand } from './commands/say'
import { registerServeCommand } from './commands/serve'
import { registerSettingsCommand } from './commands/settings'
import { registerToolCommand } from './commands/tool'
import { createProgram, EXIT_OK, exitCodeFor } from './program'

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
  registerBridgeCommand(program)
  registerEvalCommand(program)
  registerIndexCommand(program)
  registerMcpCommand(program)
  registerEmailCommand(program)
  registerCalendarCommand(program)
  return program
}

export async function runCli(argv: string[]): Promise<number> {
  const program = buildCli()
  try {
    await program.parseAsync(argv)
    return EXIT_OK
  } catch (error) {
    return exitCodeFor(error)
  }
}

export { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from './program'
