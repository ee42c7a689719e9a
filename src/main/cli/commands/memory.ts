import type { Command } from 'commander'
import type { MemoryCliOptions } from '../commandOptions'
import { dataDirOption } from '../program'

const lazy = () => import('../memory/runMemory')

export function registerMemoryCommand(program: Command): void {
  const memory = program
    .command('memory')
    .description('facts Bureau keeps across conversations: list, add, remove, pause, export, import')
    .addHelpText(
      'after',
      '\nMemories live in <data-dir>/memories.json. The ones that matter for a request are added to its\n' +
        'system prompt (at most memory budget tokens, 300 by default). Passwords, keys and tokens are refused.',
    )

  memory
    .command('list')
    .description('every memory: id, scope and text (newest first)')
    .addOption(dataDirOption())
    .option('--query <words>', 'best matches first (BM25)')
    .option('--workspace <folder>', 'only the memories that apply in this workspace folder')
    .option('--json', 'print {paused, memories} as JSON')
    .action(async (options: MemoryCliOptions) => {
      await (await lazy()).runMemoryList(options)
    })

  memory
    .command('add')
    .description('remember a fact (a password, key or token is refused)')
    .argument('<text>', 'one short fact, e.g. "Invoices go to /finance/invoices"')
    .addOption(dataDirOption())
    .option('--workspace <folder>', 'use it only in this workspace folder (default: everywhere)')
    .option('--json', 'print the stored memory as JSON')
    .action(async (text: string, options: MemoryCliOptions) => {
      await (await lazy()).runMemoryAdd(text, options)
    })

  memory
    .command('rm')
    .description('forget memories by id (see `bureau memory list`)')
    .argument('<id...>', 'memory ids')
    .addOption(dataDirOption())
    .action(async (ids: string[], options: MemoryCliOptions) => {
      await (await lazy()).runMemoryRemove(ids, options)
    })

  memory
    .command('pause')
    .description('stop adding memories to prompts and storing new ones (they are kept)')
    .addOption(dataDirOption())
    .action(async (options: MemoryCliOptions) => {
      await (await lazy()).runMemoryPause(true, options)
    })

  memory
    .command('resume')
    .description('use memories again')
    .addOption(dataDirOption())
    .action(async (options: MemoryCliOptions) => {
      await (await lazy()).runMemoryPause(false, options)
    })

  memory
    .command('export')
    .description('write every memory as JSON (to stdout, or to a file)')
    .argument('[file]', 'where to write it (default: stdout)')
    .addOption(dataDirOption())
    .action(async (file: string | undefined, options: MemoryCliOptions) => {
      await (await lazy()).runMemoryExport(file, options)
    })

  memory
    .command('import')
    .description('add the memories of a JSON export (duplicates skipped, secrets refused)')
    .argument('<file>', 'a file written by `bureau memory export` or Settings → Memory')
    .addOption(dataDirOption())
    .option('--json', 'print {added, skipped, refused} as JSON')
    .action(async (file: string, options: MemoryCliOptions) => {
      await (await lazy()).runMemoryImport(file, options)
    })
}
