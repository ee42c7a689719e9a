import type { Command } from 'commander'
import type { ModelsCliOptions } from '../commandOptions'
import { dataDirOption } from '../program'

const lazy = () => import('../models/runModels')

export function registerModelsCommand(program: Command): void {
  const models = program
    .command('models')
    .description('local GGUF models for the built-in provider (kind "local"): list, download, import, remove')
    .addHelpText(
      'after',
      '\nUse one with: bureau chat --provider local --model <id> "..." (or BUREAU_PROVIDER=local BUREAU_MODEL=<id>).\n' +
        'Models live in <data-dir>/models/; the catalogue of recommended models is models.json.',
    )

  models
    .command('list')
    .description('the recommended models of the catalogue and the installed ones (size, path, sha256)')
    .addOption(dataDirOption())
    .option('--json', 'print {catalogue, installed} as JSON')
    .action(async (options: ModelsCliOptions) => {
      await (await lazy()).runModelsList(options)
    })

  models
    .command('pull')
    .description('download a model with progress; resumes an interrupted download, verifies its sha256')
    .argument('<model>', 'a catalogue id (see `bureau models list`) or an http(s) URL of a .gguf file')
    .addOption(dataDirOption())
    .option('--sha256 <hex>', 'the expected sha256 (64 hex digits); a mismatch deletes the download')
    .option('--json', 'print the installed model as JSON')
    .action(async (model: string, options: ModelsCliOptions) => {
      await (await lazy()).runModelsPull(model, options)
    })

  models
    .command('import')
    .description(
      'copy a .gguf file you already have into the models folder (checked: GGUF signature, complete)',
    )
    .argument('<file>', 'path of the .gguf file')
    .addOption(dataDirOption())
    .option('--id <id>', 'the id to install it as (default: from the file name)')
    .option('--json', 'print the installed model as JSON')
    .action(async (file: string, options: ModelsCliOptions) => {
      await (await lazy()).runModelsImport(file, options)
    })

  models
    .command('rm')
    .description('delete an installed model')
    .argument('<id>', 'the installed model id')
    .addOption(dataDirOption())
    .action(async (id: string, options: ModelsCliOptions) => {
      await (await lazy()).runModelsRemove(id, options)
    })
}
