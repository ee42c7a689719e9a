import { prestartWorkers } from '../../convert/prestart'

/**
 * `bureau convert a.docx b.pdf`: the conversion workers start, and load the formats' libraries, while
 * the rest of the CLI (commander, the command tree, zod) loads on the main thread. An option's value
 * taken for a file name costs nothing but a library loaded for nothing.
 */
export function prestartConvert(args: readonly string[]): void {
  if (args[0] !== 'convert' || args.includes('--help') || args.includes('-h')) return
  const files = args.slice(1).filter((arg) => !arg.startsWith('-'))
  if (files.length > 0) prestartWorkers(files)
}
