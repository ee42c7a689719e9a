import { open } from 'node:fs/promises'
import { AppError } from '../../shared/errors'

const MAGIC = 'GGUF'

/** What a valid GGUF file told us. */
export interface GgufSummary {
  version: number
  sizeBytes: number
  architecture: string | undefined
  contextLength: number | undefined
}

function bad(path: string, why: string): AppError {
  return new AppError(
    'VALIDATION_FAILED',
    `${path} is not a usable GGUF model: ${why}. Download it again, or pick a .gguf file made for llama.cpp.`,
  )
}

/**
 * Checks a file is a complete GGUF model before it is installed: the magic, the version, a readable
 * header, and tensor data as long as the header says (a truncated download fails here, not at load).
 */
export async function checkGguf(path: string): Promise<GgufSummary> {
  const handle = await open(path, 'r').catch((error: NodeJS.ErrnoException) => {
    throw new AppError('NOT_FOUND', `Cannot read ${path}: ${error.code ?? error.message}.`)
  })
  let sizeBytes: number
  let version: number
  try {
    sizeBytes = (await handle.stat()).size
    const head = Buffer.alloc(8)
    const { bytesRead } = await handle.read(head, 0, 8, 0)
    if (bytesRead < 8) throw bad(path, `it has only ${sizeBytes} bytes`)
    if (head.subarray(0, 4).toString('latin1') !== MAGIC)
      throw bad(path, 'it does not start with the GGUF signature')
    version = head.readUInt32LE(4)
    if (version < 2 || version > 3) throw bad(path, `GGUF version ${version} is not supported (2 or 3)`)
  } finally {
    await handle.close()
  }
  const { readGgufFileInfo, GgufInsights } = await import('node-llama-cpp')
  let info: Awaited<ReturnType<typeof readGgufFileInfo>>
  try {
    info = await readGgufFileInfo(path, { readTensorInfo: true, logWarnings: false })
  } catch (error) {
    throw bad(path, `its header cannot be read (${(error as Error).message})`)
  }
  const insights = await GgufInsights.from(info)
  const header = info.metadataSize + (info.tensorInfoSize ?? 0)
  if (sizeBytes < header + insights.modelSize)
    throw bad(
      path,
      `it is truncated (${sizeBytes} bytes, the header promises at least ${header + insights.modelSize})`,
    )
  const meta = info.architectureMetadata as { context_length?: number } | undefined
  return {
    version,
    sizeBytes,
    architecture: info.metadata?.general?.architecture,
    contextLength: meta?.context_length,
  }
}
