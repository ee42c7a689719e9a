import { prestartWorkers, setConvertLifetime } from '../../convert/prestart'

/** `bureau convert`'s options that take the next argument as their value (see commands/convert.ts). */
export const WITH_VALUE = new Set(['--max-chars', '--vision', '--data-dir'])

/** The file names of `convert`'s arguments: not an option, not an option's value; all after `--`. */
export function convertFiles(args: readonly string[]): string[] {
  const files: string[] = []
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string
    if (arg === '--') return [...files, ...args.slice(index + 1)]
    if (WITH_VALUE.has(arg)) index++
    else if (!arg.startsWith('-')) files.push(arg)
  }
  return files
}

/**
 * `bureau convert a.docx b.pdf`: the conversion workers start, and load the formats' libraries, while
 * the rest of the CLI (commander, the command tree, zod) loads on the main thread. Anything else (another
 * command, options before the command, help) starts nothing.
 */
export function prestartConvert(args: readonly string[]): void {
  if (args[0] !== 'convert' || args.includes('--help') || args.includes('-h')) return
  const files = convertFiles(args.slice(1))
  if (files.length === 0) return
  // Before the workers start: they read the lifetime when they do (runConvert sets it again).
  setConvertLifetime('command')
  prestartWorkers(files)
}
