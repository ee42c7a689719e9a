import type { Command } from 'commander'
import { parsePositiveInt } from '../program'

export interface ConvertCommandOptions {
  keepDataUris?: boolean
  maxChars?: number
  json?: boolean
}

export function registerConvertCommand(program: Command): void {
  program
    .command('convert')
    .description(
      'convert documents to Markdown: docx, pdf, xlsx/xls/csv/tsv, pptx, html, txt/md/json/ipynb, rss/atom, epub, zip, images (offline OCR)',
    )
    .argument('<files...>', 'the files to convert')
    .option('--keep-data-uris', 'keep images as data: URIs instead of short placeholders')
    .option(
      '--max-chars <n>',
      'character budget per file (longer output is summarised or cut)',
      parsePositiveInt,
    )
    .option('--json', 'print JSON with a status per file instead of Markdown')
    .action(async (files: string[], options: ConvertCommandOptions) => {
      const { runConvert } = await import('../convert/runConvert')
      await runConvert(files, options)
    })
}
