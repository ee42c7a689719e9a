import type { Command } from 'commander'
import { addBrowserOptions } from '../browserOptions'
import type { ToolOptions } from '../commandOptions'
import { dataDirOption, workspaceOption } from '../program'
import { cliStreams } from '../textIo'

export function registerToolCommand(program: Command): void {
  const command = program
    .command('tool')
    .description(
      'run one tool command and print the result as JSON; without a command, read commands from stdin',
    )
    .usage(
      '[--workspace DIR] [--data-dir DIR] <toolset> <method> [args...]  (or - to read commands from stdin)',
    )
    .addOption(workspaceOption())
    .addOption(dataDirOption())
    .argument('[command...]', 'toolset, method and arguments; `--help` lists the toolsets')
    // Everything after the toolset (including --help and --options) belongs to the tool terminal.
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
  addBrowserOptions(command)
  command.action(async (words: string[], options: ToolOptions) => {
    // `bureau tool --help`: this command's own options first, then the terminal's list of toolsets.
    if (words.length === 1 && ['--help', '-h', 'help', '?'].includes(words[0] ?? '')) {
      cliStreams().stdout.write(`${command.helpInformation()}\n`)
    }
    const { runTool } = await import('../tool/runTool')
    await runTool(words, options)
  })
}
