import { type Command, Option } from 'commander'
import type { ConvertCommandOptions } from '../commandOptions'
import { dataDirOption, parsePositiveInt } from '../program'

export function registerConvertCommand(program: Command): void {
  program
    .command('convert')
    .description(
      "convert documents to Markdown: docx, pdf, xlsx/xls/csv/tsv, pptx, html, txt/md/json/ipynb, rss/atom, epub, zip, images (offline OCR, or the provider's vision model with --vision)",
    )
    .argument('<files...>', 'the files to convert')
    .option('--keep-data-uris', 'keep images as data: URIs instead of short placeholders')
    .option(
      '--max-chars <n>',
      'character budget per file (longer output is summarised or cut)',
      parsePositiveInt,
    )
    .option(
      '--accepted-text',
      'Word files: the text as if every tracked change were accepted, without change marks or comments (default: changes shown as {++inserted++}/{--deleted--} with author and date, comments listed)',
    )
    .option('--json', 'print JSON with a status per file instead of Markdown')
    .option('--no-cache', 'convert every file even when the same bytes were converted earlier in the batch')
    .addOption(
      new Option(
        '--vision <mode>',
        "who reads images and scanned PDF pages: 'off' = offline OCR only; 'when-supported' = the active provider's model when its supportsVision is on (the picture is sent to the provider), else OCR with a warning (default: the setting attachments.vision, off unless changed)",
      ).choices(['off', 'when-supported']),
    )
    .addOption(dataDirOption())
    .action(async (files: string[], options: ConvertCommandOptions) => {
      const { runConvert } = await import('../convert/runConvert')
      await runConvert(files, options)
    })
}
