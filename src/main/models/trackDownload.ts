/** The fields every background download's progress has (model and speech-model downloads alike). */
export interface TrackedProgress {
  state: 'downloading' | 'done' | 'failed' | 'cancelled'
  speed: number
  etaSeconds: number | null
  message: string | null
}

export interface TrackDownloadOptions<P extends TrackedProgress> {
  /** A progress event (throttled) and the end (always sent). */
  emit: (progress: P) => void
  /** Minimum time between two progress events. */
  intervalMs: number
  /** Runs the download, reporting through `update`; resolves with what the `done` event adds. */
  pull: (update: (patch: Partial<P>) => void) => Promise<Partial<P>>
  /** The words for a failed or cancelled download. */
  failure: (error: unknown, cancelled: boolean) => string
}

/**
 * Runs one background download: keeps `download.progress` current, emits it at most once per interval,
 * and always emits how it ended (done, cancelled through `download.controller`, or failed). Never throws.
 */
export async function trackDownload<P extends TrackedProgress>(
  download: { progress: P; controller: AbortController },
  options: TrackDownloadOptions<P>,
): Promise<void> {
  let last = 0
  const update = (patch: Partial<P>, force = false) => {
    download.progress = { ...download.progress, ...patch }
    const now = Date.now()
    if (!force && now - last < options.intervalMs) return
    last = now
    options.emit(download.progress)
  }
  try {
    const done = await options.pull((patch) => update(patch))
    update({ state: 'done', speed: 0, etaSeconds: 0, ...done } as Partial<P>, true)
  } catch (error) {
    const cancelled = download.controller.signal.aborted
    update(
      {
        state: cancelled ? 'cancelled' : 'failed',
        speed: 0,
        etaSeconds: null,
        message: options.failure(error, cancelled),
      } as Partial<P>,
      true,
    )
  }
}
