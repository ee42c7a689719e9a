import { type Command, Option } from 'commander'
import type { IndexCliOptions } from '../commandOptions'
import { dataDirOption, parsePositiveInt, workspaceOption } from '../program'

export function registerIndexCommand(program: Command): void {
  const index = program
    .command('index')
    .description(
      "the knowledge index of the workspace's documents (BM25, plus vectors when embeddings are set)",
    )
  const common = (command: Command) =>
    command.addOption(workspaceOption()).addOption(dataDirOption()).option('--json', 'print JSON')
  common(
    index
      .command('build')
      .description('index what changed since the last build (progress on stderr) and return when done'),
  ).action(async (options: IndexCliOptions) => {
    const { runIndexBuild } = await import('../index/runIndex')
    await runIndexBuild(options)
  })
  common(
    index.command('status').description('files indexed, passages, errors per file, BM25 or hybrid'),
  ).action(async (options: IndexCliOptions) => {
    const { runIndexStatus } = await import('../index/runIndex')
    await runIndexStatus(options)
  })
  common(
    index
      .command('search')
      .description('search the index (it is brought up to date first); --json prints the ranked passages')
      .argument('<query>', 'what to look for'),
  )
    .addOption(new Option('--top-k <n>', 'how many passages (default 8)').argParser(parsePositiveInt))
    .option('--path-glob <glob>', 'only files matching it, e.g. "*.pdf" or "reports/**"')
    .action(async (query: string, options: IndexCliOptions) => {
      const { runIndexSearch } = await import('../index/runIndex')
      await runIndexSearch(query, options)
    })
}
