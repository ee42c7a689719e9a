import { constants } from 'node:fs'
import { open, stat } from 'node:fs/promises'
import { AppError } from '../../shared/errors'
import { GgufHeaderError, scanGgufHeader } from './ggufHeader'

/** What a valid GGUF file told us. */
export interface GgufSummary {
  version: number
  sizeBytes: number
  architecture: string | undefined
  contextLength: number | undefined
}

function bad(path: string, why: string, cause?: unknown): AppError {
  return new AppError(
    'VALIDATION_FAILED',
    `${path} is not a usable GGUF model: ${why}. Download it again, or pick a .gguf file made for llama.cpp.`,
    cause === undefined ? undefined : { cause },
  )
}

function kindOf(info: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean }): string {
  if (info.isDirectory()) return 'a folder'
  if (info.isFIFO()) return 'a named pipe'
  if (info.isSocket()) return 'a socket'
  return 'a device or other special file'
}

/**
 * The cheap half of the check: a regular file (a pipe or a device is refused without being opened for a
 * blocking read) whose header's every count fits in the file (see `scanGgufHeader`). Enough before
 * node-llama-cpp is let near a file the user named; nothing is allocated from what the header claims.
 */
export async function checkGgufHeader(path: string): Promise<{ version: number; sizeBytes: number }> {
  const cannotRead = (error: NodeJS.ErrnoException) =>
    new AppError('NOT_FOUND', `Cannot read ${path}: ${error.code ?? error.message}.`, { cause: error })
  const before = await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw cannotRead(error)
  })
  if (!before.isFile()) throw bad(path, `it is ${kindOf(before)}, not a file`)
  // Non-blocking: should the path be swapped for a pipe after the check, opening it still returns.
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK).catch(
    (error: NodeJS.ErrnoException) => {
      throw cannotRead(error)
    },
  )
  try {
    const info = await handle.stat()
    if (!info.isFile()) throw bad(path, `it is ${kindOf(info)}, not a file`)
    if (info.size < 8) throw bad(path, `it has only ${info.size} bytes`)
    return { version: (await scanGgufHeader(handle, info.size)).version, sizeBytes: info.size }
  } catch (error) {
    if (error instanceof GgufHeaderError) throw bad(path, error.message, error)
    throw error
  } finally {
    await handle.close()
  }
}

/**
 * Checks a file is a complete GGUF model before it is installed: `checkGgufHeader`, then node-llama-cpp's
 * reading of it and tensor data as long as the header says (a truncated download fails here, not at load).
 */
export async function checkGguf(path: string): Promise<GgufSummary> {
  const { version, sizeBytes } = await checkGgufHeader(path)
  const { readGgufFileInfo, GgufInsights } = await import('node-llama-cpp')
  let header: number
  let modelSize: number
  let info: Awaited<ReturnType<typeof readGgufFileInfo>>
  try {
    info = await readGgufFileInfo(path, { readTensorInfo: true, logWarnings: false })
    const insights = await GgufInsights.from(info)
    header = Number(info.metadataSize) + Number(info.tensorInfoSize ?? 0)
    modelSize = Number(insights.modelSize)
  } catch (error) {
    throw bad(path, `its header cannot be read (${(error as Error).message})`, error)
  }
  if (!Number.isFinite(modelSize) || sizeBytes < header + modelSize)
    throw bad(
      path,
      `it is truncated (${sizeBytes} bytes, the header promises at least ${header + modelSize})`,
    )
  const meta = info.architectureMetadata as { context_length?: number } | undefined
  const contextLength = Number(meta?.context_length)
  return {
    version,
    sizeBytes,
    architecture: info.metadata?.general?.architecture,
    contextLength: Number.isFinite(contextLength) ? contextLength : undefined,
  }
}
