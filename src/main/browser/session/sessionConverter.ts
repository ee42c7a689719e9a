import { join } from 'node:path'
import type { Converter } from '../../convert'
import type { BrowserEnvironment } from '../types'

/** The document converter for PDFs: the host's, or one the session makes on first use and disposes. */
export class SessionConverter {
  private own: Promise<Converter> | undefined

  constructor(private readonly env: BrowserEnvironment) {}

  get(): Promise<Converter> {
    if (this.env.converter) return Promise.resolve(this.env.converter())
    this.own ??= import('../../convert').then(({ createConverter }) =>
      createConverter({ cacheDir: join(this.env.dataDir, 'cache', 'convert'), ocr: false }),
    )
    return this.own
  }

  /** Disposes the converter the session made (the host's is the host's to dispose). */
  async dispose(): Promise<void> {
    if (this.own) await (await this.own).dispose()
  }
}
