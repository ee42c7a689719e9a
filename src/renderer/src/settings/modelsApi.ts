import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'
import { MAX_IMPORT_BYTES, type ModelProgress, type SpeedEstimate } from '../../../shared/ipc'
import { bureau } from '../ipc/bureauClient'

export { MAX_IMPORT_BYTES }

export const installedModelsQuery = {
  queryKey: ['models', 'installed'],
  queryFn: () => bureau.invoke('models.list'),
}
export const catalogueQuery = {
  queryKey: ['models', 'catalogue'],
  queryFn: () => bureau.invoke('models.catalogue'),
}
const speedsQuery = {
  queryKey: ['models', 'speeds'],
  queryFn: () => bureau.invoke('models.speeds'),
  staleTime: Number.POSITIVE_INFINITY,
}

/** Each catalogue model's expected speed here, by id; empty until the machine has been measured. */
export function useModelSpeeds(): Map<string, SpeedEstimate> {
  const speeds = useQuery(speedsQuery)
  return useMemo(
    () => new Map((speeds.data ?? []).flatMap((s) => (s.speed ? [[s.id, s.speed] as const] : []))),
    [speeds.data],
  )
}

export const ollamaQuery = {
  queryKey: ['ollama'],
  queryFn: () => bureau.invoke('ollama.status'),
  retry: false,
}

/** Downloads by model id: the ones running when the page opened, then live from models.progress. */
export function useDownloads(): Map<string, ModelProgress> {
  const [downloads, setDownloads] = useState(new Map<string, ModelProgress>())
  const client = useQueryClient()
  const initial = useQuery({
    queryKey: ['models', 'downloads'],
    queryFn: () => bureau.invoke('models.downloads'),
  })
  useEffect(() => {
    if (initial.data) setDownloads(new Map(initial.data.map((d) => [d.id, d])))
  }, [initial.data])
  useEffect(
    () =>
      bureau.on('models.progress', (progress) => {
        setDownloads((map) => new Map(map).set(progress.id, progress))
        if (progress.state !== 'downloading') void client.invalidateQueries({ queryKey: ['models'] })
      }),
    [client],
  )
  return downloads
}

/** Reads a picked .gguf and installs it; files too large for the window are refused before reading. */
export async function importModelFile(file: File) {
  if (file.size > MAX_IMPORT_BYTES)
    throw new Error(
      `${file.name} is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MiB, too large to send through the window. Run \`bureau models import <file.gguf>\` in a terminal instead.`,
    )
  return bureau.invoke('models.import', {
    fileName: file.name,
    bytes: new Uint8Array(await file.arrayBuffer()),
  })
}

export function etaText(seconds: number | null): string {
  if (seconds === null) return ''
  if (seconds < 60) return `${Math.ceil(seconds)} s left`
  return `${Math.ceil(seconds / 60)} min left`
}
