import { readFile, stat } from 'node:fs/promises'
import { AppError } from '../../../shared/errors'
import {
  ConvertError,
  type ConvertResult,
  convertPoolSize,
  createAppConverter,
  setConvertLifetime,
} from '../../convert'
import type { ConvertCommandOptions } from '../commandOptions'
import { UsageError } from '../program'
import { processTextIo, type TextIo } from '../textIo'
import { cliVision } from './cliVision'

/** Nothing larger is read from disk; the converters have tighter per-format limits. */
const MAX_FILE_BYTES = 512 * 1024 * 1024

type FileReport =
  | { file: string; ok: true; result: ConvertResult }
  | { file: string; ok: false; error: { code: string; failure: string; message: string } }

async function readInput(path: string): Promise<Uint8Array> {
  let size: number
  try {
    const info = await stat(path)
    if (info.isDirectory()) throw new ConvertError(path, 'unsupported', 'it is a folder, not a file')
    size = info.size
  } catch (error) {
    if (error instanceof ConvertError) throw error
    const code = (error as NodeJS.ErrnoException).code
    throw new ConvertError(
      path,
      'failed',
      code === 'ENOENT'
        ? 'file not found'
        : code === 'EACCES'
          ? 'permission denied'
          : 'the file cannot be read',
    )
  }
  if (size > MAX_FILE_BYTES)
    throw new ConvertError(path, 'too_large', `the file is larger than ${MAX_FILE_BYTES / 2 ** 20} MB`)
  return new Uint8Array(await readFile(path))
}

function failureOf(file: string, error: unknown): FileReport {
  const problem =
    error instanceof ConvertError
      ? error
      : new ConvertError(file, 'failed', error instanceof Error ? error.message : String(error), {
          cause: error,
        })
  return {
    file,
    ok: false,
    error: { code: problem.code, failure: problem.failure, message: problem.message },
  }
}

function printMarkdown(io: TextIo, report: FileReport, many: boolean): void {
  if (!report.ok) {
    io.err(`error: ${report.error.message}\n`)
    return
  }
  for (const warning of report.result.warnings) io.err(`warning: ${report.file}: ${warning}\n`)
  const header = many ? `<!-- file: ${report.file} (${report.result.format}) -->\n\n` : ''
  io.out(`${header}${report.result.markdown}\n${many ? '\n' : ''}`)
}

function printJson(io: TextIo, reports: FileReport[]): void {
  const files = reports.map((report) =>
    report.ok
      ? {
          file: report.file,
          ok: true,
          format: report.result.format,
          title: report.result.title ?? null,
          truncated: report.result.truncated,
          warnings: report.result.warnings,
          markdown: report.result.markdown,
        }
      : report,
  )
  io.out(`${JSON.stringify({ files }, null, 2)}\n`)
}

/**
 * `bureau convert`: one converter for the whole batch, whose workers start (and load the formats'
 * libraries) before anything else; files convert in parallel (as many at once as the pool has workers,
 * with one more file read and waiting) and are reported in the order given. Exit 1 (via AppError) when
 * any file failed.
 */
export async function runConvert(
  files: string[],
  options: ConvertCommandOptions,
  io: TextIo = processTextIo,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  if (files.length === 0) throw new UsageError('name at least one file to convert')
  if (options.maxChars !== undefined && options.maxChars < 1)
    throw new UsageError('--max-chars must be at least 1')
  // One batch, then the process ends: the PDF engine stays on V8's baseline compiler (wasmTiering.ts).
  setConvertLifetime('command')
  const vision = cliVision(options, io, env)
  const converter = createAppConverter(vision ? { vision } : {})
  converter.prepare?.(files)
  const controller = new AbortController()
  const interrupt = () => controller.abort()
  process.once('SIGINT', interrupt)
  const reports: (FileReport | undefined)[] = []
  const convertOne = async (file: string): Promise<FileReport> => {
    try {
      const bytes = await readInput(file)
      const result = await converter.convert(
        { name: file, bytes },
        {
          keepDataUris: options.keepDataUris === true,
          noCache: options.cache === false,
          maxChars: options.maxChars,
          ...(options.acceptedText === true && { acceptedText: true }),
          signal: controller.signal,
        },
      )
      return { file, ok: true, result }
    } catch (error) {
      return failureOf(file, error)
    }
  }
  let printed = 0
  const printReady = () => {
    for (let report = reports[printed]; report; report = reports[++printed])
      if (!options.json) printMarkdown(io, report, files.length > 1)
  }
  let next = 0
  const lane = async () => {
    while (next < files.length && !controller.signal.aborted) {
      const index = next++
      reports[index] = await convertOne(files[index] as string)
      printReady()
    }
  }
  try {
    // One lane more than the pool has workers: that lane reads its file and waits for a worker, so a
    // worker that finishes starts on the next file at once instead of idling while the host reads it
    // (measured on 2 cores, one worker: ~20% of its time idle over a long .docx batch before, ~7% after).
    await Promise.all(Array.from({ length: Math.min(files.length, convertPoolSize() + 1) }, lane))
  } finally {
    process.removeListener('SIGINT', interrupt)
    await converter.dispose()
  }
  const done = reports.slice(0, printed).filter((report) => report !== undefined)
  if (options.json) printJson(io, done)
  const failed = done.filter((report) => !report.ok).length
  if (controller.signal.aborted) throw new AppError('CANCELLED', 'conversion interrupted')
  if (failed > 0)
    throw new AppError('HANDLER_FAILED', `${failed} of ${files.length} files could not be converted`)
}
