/**
 * One model in memory at a time, by path: the same path is loaded once, another path replaces it,
 * and a load that fails leaves the slot empty. With an idle time, the model is unloaded after it.
 */
export class ModelSlot<T> {
  private loaded: Promise<T> | undefined
  private loadedPath: string | undefined
  private idleTimer: NodeJS.Timeout | undefined

  constructor(
    private readonly dispose: (value: T) => Promise<void>,
    private readonly idleMs: () => number,
  ) {}

  /** The loaded (or loading) model's path, if any. */
  get path(): string | undefined {
    return this.loadedPath
  }

  async load(path: string, open: (path: string) => Promise<T>): Promise<T> {
    this.clearIdle()
    if (this.loaded && this.loadedPath === path) return this.loaded
    await this.unload()
    this.loadedPath = path
    this.loaded = open(path).catch((error: unknown) => {
      this.loaded = undefined
      this.loadedPath = undefined
      throw error
    })
    return this.loaded
  }

  async unload(): Promise<void> {
    this.clearIdle()
    const loaded = this.loaded
    this.loaded = undefined
    this.loadedPath = undefined
    const value = await loaded?.catch(() => undefined)
    if (value) await this.dispose(value)
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer)
    this.idleTimer = undefined
  }

  /** Starts the idle countdown (again); nothing when the slot is empty or the idle time is 0. */
  scheduleIdle(): void {
    this.clearIdle()
    const ms = this.idleMs()
    if (!this.loaded || ms <= 0) return
    this.idleTimer = setTimeout(() => void this.unload(), ms)
    this.idleTimer.unref()
  }
}
