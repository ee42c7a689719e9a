import type { Command } from 'commander'
import type { AutomationAddOptions, AutomationsCliOptions } from '../automations/runAutomations'
import { dataDirOption, workspaceOption } from '../program'

const lazy = () => import('../automations/runAutomations')

export function registerAutomationsCommand(program: Command): void {
  const automations = program
    .command('automations')
    .description('prompts that run later without you: on a schedule, a file or a new mail')
    .addHelpText(
      'after',
      '\nAutomations live in <data-dir>/automations.json. The app and `bureau serve` run them; on a server\n' +
        'without either, call `bureau automations run-pending` from cron every minute. A run never waits for a\n' +
        'click: calls above its --approve level are denied and recorded in its history.',
    )

  automations
    .command('list')
    .description('every automation: trigger, approval level, next run, last result')
    .addOption(dataDirOption())
    .option('--json', 'print the list with next runs and last runs as JSON')
    .action(async (options: AutomationsCliOptions) => {
      await (await lazy()).runAutomationsList(options)
    })

  automations
    .command('add')
    .description('add an automation (one trigger; without one it runs only with `run`)')
    .argument('<name>', 'a unique name, e.g. "Inbox summary"')
    .requiredOption('--prompt <text>', 'what the agent does on each run')
    .option(
      '--every <schedule>',
      'a plain schedule: "weekday at 8:00", "hour", "friday at 16:00", "month on the 1st at 9:00"',
    )
    .option('--cron <expr>', 'a cron expression, e.g. "0 8 * * 1-5"')
    .option('--time-zone <zone>', "the schedule's IANA zone (default: yours)")
    .option(
      '--on-file <folder>',
      'run when a file appears or changes in this workspace folder (it is attached)',
    )
    .option('--glob <pattern>', 'with --on-file: which files, e.g. "*.pdf" (default every file)')
    .option('--on-mail <folder>', 'run when new mail arrives in this folder, e.g. INBOX')
    .option('--from <text>', 'with --on-mail: only mail whose sender contains this')
    .option('--subject <text>', 'with --on-mail: only mail whose subject contains this')
    .option('--account <name>', 'with --on-mail: the e-mail account (default: the first)')
    .option('--approve <level>', 'what a run may do unattended: none | read | write | all (default read)')
    .option('--toolsets <a,b>', 'toolsets offered (default: as in chat)')
    .option('--result-file <path>', 'also append each answer to this workspace file')
    .option(
      '--result-mail <addresses>',
      "also e-mail each answer to these addresses (comma-separated) through the email toolset's send; the --approve level applies (sending is external: all)",
    )
    .option('--skip-missed', 'skip schedules missed while Bureau was closed (default: run once at start)')
    .option('--max-steps <n>', 'step budget of a run (default 20)')
    .option('--deadline <minutes>', 'a run is stopped after this (default 10)')
    .option('--disabled', 'add it switched off')
    .addOption(dataDirOption())
    .addOption(workspaceOption())
    .option('--json', 'print the stored automation as JSON')
    .action(async (name: string, options: AutomationAddOptions) => {
      await (await lazy()).runAutomationsAdd(name, options)
    })

  automations
    .command('rm')
    .description('delete an automation and its run history')
    .argument('<name>', 'its name or id')
    .addOption(dataDirOption())
    .action(async (name: string, options: AutomationsCliOptions) => {
      await (await lazy()).runAutomationsRemove(name, options)
    })

  automations
    .command('enable')
    .description('switch an automation on')
    .argument('<name>', 'its name or id')
    .addOption(dataDirOption())
    .action(async (name: string, options: AutomationsCliOptions) => {
      await (await lazy()).runAutomationsEnable(name, true, options)
    })

  automations
    .command('disable')
    .description('switch an automation off (it is kept)')
    .argument('<name>', 'its name or id')
    .addOption(dataDirOption())
    .action(async (name: string, options: AutomationsCliOptions) => {
      await (await lazy()).runAutomationsEnable(name, false, options)
    })

  automations
    .command('run')
    .description('run one now, in the foreground, unattended as its trigger would (approvals included)')
    .argument('<name>', 'its name or id')
    .addOption(dataDirOption())
    .addOption(workspaceOption())
    .option('--json', 'print the finished run as JSON')
    .action(async (name: string, options: AutomationsCliOptions) => {
      await (await lazy()).runAutomationsRun(name, options)
    })

  automations
    .command('run-pending')
    .description('run the schedules that are due now (and missed ones): call it from cron on a server')
    .addOption(dataDirOption())
    .addOption(workspaceOption())
    .option('--json', 'print the runs as JSON')
    .action(async (options: AutomationsCliOptions) => {
      await (await lazy()).runAutomationsPending(options)
    })

  automations
    .command('history')
    .description("an automation's runs, newest first, with denied calls and conversations")
    .argument('<name>', 'its name or id')
    .addOption(dataDirOption())
    .option('--json', 'print the runs as JSON')
    .action(async (name: string, options: AutomationsCliOptions) => {
      await (await lazy()).runAutomationsHistory(name, options)
    })
}
