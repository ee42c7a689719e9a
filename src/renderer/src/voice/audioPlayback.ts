/**
 * Plays audio bytes through one AudioContext. It is created (or resumed) on a user gesture — the
 * mic button — so the autoplay policy lets the answer play seconds later.
 */
export class AudioPlayback {
  private context: AudioContext | undefined

  /** Call from a click or key handler. */
  unlock(): void {
    this.context ??= new AudioContext()
    if (this.context.state === 'suspended') void this.context.resume()
  }

  async play(bytes: Uint8Array, signal: AbortSignal, onStarted: () => void): Promise<void> {
    this.unlock()
    const context = this.context as AudioContext
    if (context.state === 'suspended') await context.resume()
    const buffer = await context.decodeAudioData(bytes.slice().buffer)
    if (signal.aborted) return
    await new Promise<void>((resolve) => {
      const source = context.createBufferSource()
      source.buffer = buffer
      source.connect(context.destination)
      const stop = () => {
        try {
          source.stop()
        } catch {
          // already stopped
        }
        resolve()
      }
      source.onended = () => {
        signal.removeEventListener('abort', stop)
        resolve()
      }
      signal.addEventListener('abort', stop, { once: true })
      source.start()
      onStarted()
    })
  }

  close(): void {
    void this.context?.close()
    this.context = undefined
  }
}
