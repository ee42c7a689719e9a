import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo } from 'react'
import { type IpcClient, PREVIEW_FIRST_ROWS } from '../../../shared/ipc'
import { useBureau } from '../ipc/BureauProvider'
import { queryKeys } from '../ipc/queryKeys'

/** Rows one `preview.sheetRows` request of the grid asks for: a description brings the first page. */
export const SHEET_PAGE_ROWS = PREVIEW_FIRST_ROWS

/** The query of one page of `SHEET_PAGE_ROWS` rows of a sheet (page 0 holds rows 1 to 200). */
function rowPage(bureau: IpcClient, path: string, version: string, sheet: string, page: number) {
  return {
    queryKey: queryKeys.preview.rows(path, version, sheet, page),
    queryFn: () =>
      bureau.invoke('preview.sheetRows', {
        path,
        version,
        sheet,
        from: page * SHEET_PAGE_ROWS + 1,
        count: SHEET_PAGE_ROWS,
      }),
    staleTime: Number.POSITIVE_INFINITY,
  }
}

/**
 * What a file is and how to show it, read again when the file changes on disk. A workbook's description
 * brings the first page of its first visible sheet, which goes into the rows' cache; when the pane opens
 * at another sheet (`firstSheet`, that of the run's first change), its first page is asked for as soon as
 * the description arrives, before the pane renders it.
 */
export function usePreviewDescription(path: string | undefined, version: string, firstSheet?: string) {
  const bureau = useBureau()
  const queryClient = useQueryClient()
  const description = useQuery({
    queryKey: queryKeys.preview.describe(path, version),
    queryFn: async () => {
      const described = await bureau.invoke('preview.describe', { path: path ?? '/', version })
      if (described.kind === 'sheet') {
        const visible = described.sheets.filter((s) => !s.hidden)
        const sheet = visible.find((s) => s.name === firstSheet) ?? visible[0]
        const brought = described.firstRows
        if (brought && brought.sheet === sheet?.name) {
          const complete = sheet.rowsExact !== false
          queryClient.setQueryData(queryKeys.preview.rows(described.path, version, sheet.name, 0), {
            rows: brought.rows,
            sheet: complete
              ? { rows: sheet.rows, complete, merges: sheet.merges }
              : { rows: sheet.rows, complete },
          })
        } else if (sheet && sheet.rows > 0)
          void queryClient.prefetchQuery(rowPage(bureau, described.path, version, sheet.name, 0))
      }
      return described
    },
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

/** The stored versions of a file, newest first; asked only while `enabled`. */
export function usePreviewVersions(path: string, enabled = true) {
  const bureau = useBureau()
  return useQuery({
    queryKey: queryKeys.preview.versions(path),
    queryFn: () => bureau.invoke('preview.versions', { path }),
    enabled,
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

/**
 * The pages of `SHEET_PAGE_ROWS` rows of one sheet that are in view, each cached on its own. A page not
 * read yet is asked for only once it is in `fetch`; one read before shows at once.
 */
export function useSheetRowPages(
  path: string,
  version: string,
  sheet: string,
  pages: readonly number[],
  fetch: ReadonlySet<number>,
) {
  const bureau = useBureau()
  return useQueries({
    queries: pages.map((page) => ({
      ...rowPage(bureau, path, version, sheet, page),
      enabled: fetch.has(page),
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
