import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import {
  MAX_IMPORT_BYTES,
  type ModelProgress,
  type OllamaPullProgressEvent,
  type SpeedEstimate,
} from '../../../shared/ipc'
import { useBureau } from '../ipc/BureauProvider'
import { queryKeys } from '../ipc/queryKeys'

export { MAX_IMPORT_BYTES }

/** Installed local models. */
export function useInstalledModels() {
  const bureau = useBureau()
  return useQuery({ queryKey: queryKeys.models.installed(), queryFn: () => bureau.invoke('models.list') })
}

/** The models Bureau offers to download. */
export function useCatalogue() {
  const bureau = useBureau()
  return useQuery({
    queryKey: queryKeys.models.catalogue(),
    queryFn: () => bureau.invoke('models.catalogue'),
  })
}

/** Each catalogue model's expected speed here, by id; empty until the machine has been measured. */
export function useModelSpeeds(): Map<string, SpeedEstimate> {
  const bureau = useBureau()
  const speeds = useQuery({
    queryKey: queryKeys.models.speeds(),
    queryFn: () => bureau.invoke('models.speeds'),
    staleTime: Number.POSITIVE_INFINITY,
  })
  return useMemo(
    () => new Map((speeds.data ?? []).flatMap((s) => (s.speed ? [[s.id, s.speed] as const] : []))),
    [speeds.data],
  )
}

/** Whether Ollama runs here, and its models; asked only while `enabled`. */
export function useOllamaStatus(enabled = true) {
  const bureau = useBureau()
  return useQuery({
    queryKey: queryKeys.ollama(),
    queryFn: () => bureau.invoke('ollama.status'),
    retry: false,
    enabled,
  })
}

/** Downloads by model id: the ones running when the page opened, then live from models.progress. */
export function useDownloads(): Map<string, ModelProgress> {
  const bureau = useBureau()
  const [downloads, setDownloads] = useState(new Map<string, ModelProgress>())
  const client = useQueryClient()
  const initial = useQuery({
    queryKey: queryKeys.models.downloads(),
    queryFn: () => bureau.invoke('models.downloads'),
  })
  useEffect(() => {
    if (initial.data) setDownloads(new Map(initial.data.map((d) => [d.id, d])))
  }, [initial.data])
  useEffect(
    () =>
      bureau.on('models.progress', (progress) => {
        setDownloads((map) => new Map(map).set(progress.id, progress))
        if (progress.state !== 'downloading')
          void client.invalidateQueries({ queryKey: queryKeys.models.all() })
      }),
    [bureau, client],
  )
  return downloads
}

/** The model routes that change something, bound to the client; `models.progress` reports downloads. */
export function useModelsApi() {
  const bureau = useBureau()
  return useMemo(
    () => ({
      use: (id: string) => bureau.invoke('models.use', { id }),
      pull: (id: string) => bureau.invoke('models.pull', { id }),
      cancel: (id: string) => bureau.invoke('models.cancel', { id }),
      remove: (id: string) => bureau.invoke('models.delete', { id }),
    }),
    [bureau],
  )
}

/** Starts `ollama pull`; `onProgress` hears Ollama's progress, and the Ollama status is read again when done. */
export function useOllamaPull(onProgress: (progress: OllamaPullProgressEvent) => void) {
  const bureau = useBureau()
  const client = useQueryClient()
  const latest = useRef(onProgress)
  latest.current = onProgress
  useEffect(
    () =>
      bureau.on('ollama.progress', (p) => {
        latest.current(p)
        if (p.state === 'done') void client.invalidateQueries({ queryKey: queryKeys.ollama() })
      }),
    [bureau, client],
  )
  return useCallback((model: string) => bureau.invoke('ollama.pull', { model }), [bureau])
}

/** Reads a picked .gguf and installs it; files too large for the window are refused before reading. */
export function useImportModelFile() {
  const bureau = useBureau()
  return useCallback(
    async (file: File) => {
      if (file.size > MAX_IMPORT_BYTES)
        throw new Error(
          `${file.name} is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MiB, too large to send through the window. Run \`bureau models import <file.gguf>\` in a terminal instead.`,
        )
      return bureau.invoke('models.import', {
        fileName: file.name,
        bytes: new Uint8Array(await file.arrayBuffer()),
      })
    },
    [bureau],
  )
}

export function etaText(seconds: number | null): string {
  if (seconds === null) return ''
  if (seconds < 60) return `${Math.ceil(seconds)} s left`
  return `${Math.ceil(seconds / 60)} min left`
}
