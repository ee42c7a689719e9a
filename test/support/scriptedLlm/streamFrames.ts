import type { Exchange } from './exchange'

/**
 * One piece of a streamed reply. `chunk` frames carry generated content and are paced;
 * `meta` frames (role, block starts) go out at once; `end` frames finish the reply.
 */
export interface Frame {
  kind: 'meta' | 'chunk' | 'end'
  data: string
}

export interface StreamPacing {
  chunkDelayMs: number
  /** Stop before the chunk (or the end) that would exceed this many chunks, and hold the connection. */
  stallAfterChunks?: number
}

export async function writeFrames(exchange: Exchange, frames: Frame[], pacing: StreamPacing): Promise<void> {
  let chunks = 0
  for (const frame of frames) {
    if (frame.kind !== 'meta' && pacing.stallAfterChunks !== undefined && chunks >= pacing.stallAfterChunks) {
      return exchange.hangUntilAbort()
    }
    if (frame.kind === 'chunk') {
      if (chunks > 0) await exchange.sleep(pacing.chunkDelayMs)
      chunks++
    }
    if (exchange.closed) return
    exchange.write(frame.data)
  }
  exchange.end()
}

/** Replaces the end frames with one in-band error frame. */
export function withStreamError(frames: Frame[], errorFrame: string): Frame[] {
  return [...frames.filter((frame) => frame.kind !== 'end'), { kind: 'end', data: errorFrame }]
}

/** Keeps the first half of the chunks, then one broken frame; no end frames. */
export function cutMidStream(frames: Frame[], brokenFrame: string): Frame[] {
  const chunkCount = frames.filter((frame) => frame.kind === 'chunk').length
  const keep = Math.max(1, Math.floor(chunkCount / 2))
  const kept: Frame[] = []
  let chunks = 0
  for (const frame of frames) {
    if (frame.kind === 'end') break
    if (frame.kind === 'chunk' && chunks++ >= keep) break
    kept.push(frame)
  }
  return [...kept, { kind: 'chunk', data: brokenFrame }]
}

export function sseData(payload: unknown): string {
  return `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`
}

export function sseEvent(event: string, payload: unknown): string {
  return `event: ${event}\n${sseData(payload)}`
}

/** A JSON text cut in the middle: what a client gets when a proxy or model truncates its output. */
export function truncatedJson(payload: unknown): string {
  const text = JSON.stringify(payload)
  return text.slice(0, Math.max(1, Math.floor(text.length / 2)))
}
