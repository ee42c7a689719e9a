import { type Command, Option } from 'commander'
import { addBrowserOptions } from '../browserOptions'
import type { ChatCliOptions } from '../commandOptions'
import { addProviderOptions, applyProviderFlags, dataDirOption, workspaceOption } from '../program'

const collect = (value: string, previous: string[]) => [...previous, value]

export function registerChatCommand(program: Command): void {
  const command = program
    .command('chat')
    .description(
      'run one agent request: the reply streams to stdout, each step to stderr, returned files are printed as agent paths',
    )
    .argument('<prompt>', 'what to ask or do')
    .addOption(workspaceOption())
    .addOption(dataDirOption())
    .option('--attach <file>', 'attach a file (repeatable); it is converted and saved to /inbox', collect, [])
    .option('--toolset <name>', 'use only these toolsets (repeatable; default: all)', collect, [])
    .option('--subagent <name>', 'offer this toolset as a sub-agent (repeatable)', collect, [])
    .addOption(new Option('--interaction-mode <mode>', 'how the model calls tools').choices(['api', 'cli']))
    .option(
      '--anonymize <term>',
      'replace this name or key before anything reaches the model (repeatable)',
      collect,
      [],
    )
    .option('--max-iterations <n>', 'model calls allowed (default 50)', (v) => Number.parseInt(v, 10))
    .option('--json', 'print the final result object as JSON instead of streaming')
    .addOption(
      new Option(
        '--approve <level>',
        'calls the approval settings would ask about run up to this risk; others are denied and reported',
      ).choices(['read', 'write', 'all']),
    )
    .addHelpText(
      'after',
      '\nExit status: 0 when the agent finished, 1 when the model or a tool failed for good.',
    )
  addBrowserOptions(command)
  addProviderOptions(command)
  command.action(async (prompt: string, options: ChatCliOptions) => {
    applyProviderFlags(options)
    const { runChat } = await import('../chat/runChat')
    await runChat(prompt, options)
  })
}
