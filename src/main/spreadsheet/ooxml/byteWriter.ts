const CHUNK = 1024 * 1024

/**
 * Text written as UTF-8 into 1 MB buffers, joined once at the end: a big part (pivot cache records) is
 * never held as one string, nor as the many strings that would make it.
 */
export class ByteWriter {
  private readonly chunks: Buffer[] = []
  private chunk = Buffer.allocUnsafe(CHUNK)
  private used = 0
  private total = 0

  write(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (this.used + text.length * 3 > this.chunk.length) {
      this.seal()
      if (text.length * 3 > CHUNK) {
        const big = Buffer.from(text, 'utf8')
        this.chunks.push(big)
        this.total += big.length
        return
      }
    }
    this.used += this.chunk.write(text, this.used, 'utf8')
  }

  private seal(): void {
    if (this.used === 0) return
    this.chunks.push(this.chunk.subarray(0, this.used))
    this.total += this.used
    this.chunk = Buffer.allocUnsafe(CHUNK)
    this.used = 0
  }

  /** Everything written, as one array (the writer is spent). */
  bytes(): Uint8Array {
    this.seal()
    const out = new Uint8Array(this.total)
    let at = 0
    for (const chunk of this.chunks) {
      out.set(chunk, at)
      at += chunk.length
    }
    this.chunks.length = 0
    return out
  }
}
