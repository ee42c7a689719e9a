import { useQueries, useQuery } from '@tanstack/react-query'
import { useEffect, useMemo } from 'react'
import { useBureau } from '../ipc/BureauProvider'
import { queryKeys } from '../ipc/queryKeys'

/** What a file is and how to show it, read again when the file changes on disk. */
export function usePreviewDescription(path: string | undefined, version: string) {
  const bureau = useBureau()
  const description = useQuery({
    queryKey: queryKeys.preview.describe(path, version),
    queryFn: () => bureau.invoke('preview.describe', { path: path ?? '/', version }),
    enabled: path !== undefined,
    retry: false,
  })
  const { refetch } = description
  useEffect(
    () =>
      bureau.on('workspace.changed', ({ paths }) => {
        if (path && paths.includes(path)) void refetch()
      }),
    [bureau, path, refetch],
  )
  return description
}

/** The cells of a sheet that differ between `version` and `against`; asked only while `enabled`. */
export function usePreviewCompare(
  path: string | undefined,
  version: string,
  against: string | undefined,
  enabled: boolean,
) {
  const bureau = useBureau()
  return useQuery({
    queryKey: queryKeys.preview.compare(path, version, against),
    queryFn: () =>
      bureau.invoke('preview.compare', { path: path ?? '/', version, against: against ?? 'current' }),
    enabled,
  })
}

/** The stored versions of a file, newest first. */
export function usePreviewVersions(path: string) {
  const bureau = useBureau()
  return useQuery({
    queryKey: queryKeys.preview.versions(path),
    queryFn: () => bureau.invoke('preview.versions', { path }),
  })
}

/** One page of a PDF drawn at `width` pixels. */
export function usePdfPage(path: string, version: string, page: number, width: number) {
  const bureau = useBureau()
  return useQuery({
    queryKey: queryKeys.preview.pdfPage(path, version, page, width),
    queryFn: () => bureau.invoke('preview.pdfPage', { path, version, page, width }),
    staleTime: Number.POSITIVE_INFINITY,
  })
}

/** A file's bytes as stored in that version. */
export function usePreviewBytes(path: string, version: string) {
  const bureau = useBureau()
  return useQuery({
    queryKey: queryKeys.preview.bytes(path, version),
    queryFn: () => bureau.invoke('preview.bytes', { path, version }),
  })
}

/** The pages of `pageRows` rows of one sheet that are on screen, each cached on its own. */
export function useSheetRowPages(
  path: string,
  version: string,
  sheet: string,
  pages: number[],
  pageRows: number,
) {
  const bureau = useBureau()
  return useQueries({
    queries: pages.map((page) => ({
      queryKey: queryKeys.preview.rows(path, version, sheet, page),
      queryFn: () =>
        bureau.invoke('preview.sheetRows', {
          path,
          version,
          sheet,
          from: page * pageRows + 1,
          count: pageRows,
        }),
      staleTime: Number.POSITIVE_INFINITY,
    })),
  })
}

/** The preview routes that change something, bound to the client. */
export function usePreviewActions() {
  const bureau = useBureau()
  return useMemo(
    () => ({
      restore: (path: string, version: string) => bureau.invoke('preview.restore', { path, version }),
    }),
    [bureau],
  )
}
