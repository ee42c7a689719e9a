import { createHash } from 'node:crypto'
import { posix } from 'node:path'
import { chunkMarkdown } from '../chunking/chunkMarkdown'
import type { ChunkRow } from '../store/chunkStore'

/** The rows stored for one converted file: ids unique per path, BM25 text led by name and headings. */
export function fileChunkRows(path: string, markdown: string, format: string): ChunkRow[] {
  const prefix = createHash('sha256').update(path).digest('hex').slice(0, 16)
  const name = posix.basename(path)
  return chunkMarkdown(markdown, { format }).map((chunk) => ({
    id: `${prefix}:${chunk.ordinal}`,
    path,
    ordinal: chunk.ordinal,
    anchor: JSON.stringify(chunk.anchor),
    text: chunk.text,
    search: `${name}\n${chunk.anchor.headings.join('\n')}\n${chunk.text}`,
    start: chunk.start,
    end: chunk.end,
  }))
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}
