import type { ReplyScript, Responder } from './types'

/** A FIFO of scripted replies; once empty, the responder (if any) answers. */
export class ReplyQueue<TTurn, TInfo> implements ReplyScript<TTurn, TInfo> {
  private queue: TTurn[] = []
  private responder: Responder<TInfo, TTurn> | undefined

  constructor(private readonly validate: (turn: TTurn) => void = () => {}) {}

  push(...turns: TTurn[]): void {
    for (const turn of turns) this.validate(turn)
    this.queue.push(...turns)
  }

  setResponder(responder: Responder<TInfo, TTurn> | undefined): void {
    this.responder = responder
  }

  get pending(): number {
    return this.queue.length
  }

  /** The next reply, or undefined when the script ran out. */
  async next(info: () => TInfo): Promise<TTurn | undefined> {
    const queued = this.queue.shift()
    if (queued !== undefined) return queued
    if (!this.responder) return undefined
    const turn = await this.responder(info())
    if (turn !== undefined) this.validate(turn)
    return turn
  }

  reset(): void {
    this.queue = []
    this.responder = undefined
  }
}
