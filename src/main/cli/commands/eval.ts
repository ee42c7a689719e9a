import { type Command, Option } from 'commander'
import type { EvalCliOptions } from '../commandOptions'
import { dataDirOption, parsePositiveInt } from '../program'

export function registerEvalCommand(program: Command): void {
  const command = program
    .command('eval')
    .description(
      'run the office task suite (eval/tasks) through the agent and check the end state: which models manage Bureau’s tasks',
    )
    .option('--provider <id>', 'provider to evaluate (default: the active one)')
    .option('--model <name>', 'model of that provider (default: its configured model)')
    .addOption(
      new Option('--mode <mode>', 'how the model calls tools (default: as in the app)').choices([
        'api',
        'cli',
      ]),
    )
    .option(
      '--tasks <glob>',
      'only the tasks whose id matches (comma-separated globs, e.g. "sheet-*,web-form")',
    )
    .option('--tasks-dir <dir>', 'a task suite folder of your own (holds suite.json, tasks/ and fixtures/)')
    .option(
      '--suite <dir>',
      'a third-party suite instead of Bureau’s own: an OfficeBench folder (holds tasks/), or "officebench" for the configured one (BUREAU_OFFICEBENCH_DIR, else ../shared/officebench)',
    )
    .option('--repeat <n>', 'run every task n times', parsePositiveInt, 1)
    .option('--json <file>', 'also write the full results as JSON to this file ("-" for stdout)')
    .option('--reference', 'replay each task’s reference solution through the tools, without a model')
    .option('--wrong', 'replay each task’s wrong solution (every task should fail: the checkers can fail)')
    .option('--timeout <seconds>', 'longest time one task may take', parsePositiveInt, 600)
    .option(
      '--browser-executable <path>',
      'the Chromium/Chrome/Edge the web tasks start headless (default: found automatically)',
    )
    .addOption(dataDirOption())
    .addHelpText(
      'after',
      [
        '',
        'Each task runs in a fresh temporary workspace with every toolset of the app; the web tasks use',
        'local test pages on 127.0.0.1 and a headless Chromium of their own. A model run stores its score',
        'in <data-dir>/eval/last-results.json (shown in Settings → Model provider).',
        'With --suite, the ids are ob-<folder>-<n> (e.g. ob-2-14-0; --tasks "ob-1-*" runs the one-app subtasks)',
        'and the report adds the paper’s table (one, two, three apps, all) with the published rows beside it.',
        'Exit status: 0 when every task passed, 1 when one failed, 2 for a usage error.',
      ].join('\n'),
    )
  command.action(async (options: EvalCliOptions) => {
    const { runEvalCli } = await import('../eval/runEvalCli')
    await runEvalCli(options)
  })
}
