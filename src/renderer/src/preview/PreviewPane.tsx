import './preview.css'
import { useQueryClient } from '@tanstack/react-query'
import { type KeyboardEvent, type PointerEvent, useEffect, useMemo, useRef, useState } from 'react'
import type { PreviewDescription } from '../../../shared/ipc'
import { useAppInfo } from '../app/appApi'
import { useNavigation } from '../app/navigationStore'
import { Icon } from '../components/Icon'
import { useCopy } from '../components/useCopy'
import { queryKeys } from '../ipc/queryKeys'
import { useWorkspaceActions } from '../workspace/workspaceApi'
import { useWorkspaceNav } from '../workspace/workspaceNav'
import { CalendarView, EmailView, HtmlView, ImageView, PdfView, TextView } from './DocumentViews'
import { usePreviewActions, usePreviewCompare, usePreviewDescription, usePreviewVersions } from './previewApi'
import { type PreviewTarget, usePreview } from './previewStore'
import { SheetView } from './SheetView'

function Body({
  description,
  target,
  compared,
}: {
  description: PreviewDescription
  target: PreviewTarget
  compared: ReadonlyMap<string, ReadonlySet<string>> | undefined
}) {
  switch (description.kind) {
    case 'sheet':
      return (
        <SheetView
          description={description}
          // The run's receipts describe the file as the run left it, not an older version.
          changes={description.version === 'current' ? target.changes : []}
          compared={compared}
        />
      )
    case 'pdf':
      return <PdfView description={description} />
    case 'image':
      return <ImageView description={description} />
    case 'text':
      return <TextView description={description} />
    case 'html':
      return <HtmlView description={description} />
    case 'email':
      return <EmailView description={description} />
    case 'calendar':
      return <CalendarView description={description} />
    case 'unsupported':
      return (
        <p className="banner" role="note">
          {description.reason}
        </p>
      )
  }
}

function Actions({ path, onMessage }: { path: string; onMessage: (text: string) => void }) {
  const workspace = useWorkspaceActions()
  const desktop = useAppInfo().data?.host === 'electron'
  const { copied, copy } = useCopy()
  const go = useNavigation((s) => s.go)
  const reveal = useWorkspaceNav((s) => s.reveal)
  const name = path.slice(path.lastIndexOf('/') + 1)
  const run = async (action: () => Promise<void>) => {
    try {
      await action()
    } catch (error) {
      onMessage(error instanceof Error ? error.message : String(error))
    }
  }
  const open = (revealIt: boolean) =>
    run(async () => {
      const { opened, reason } = await workspace.open(path, revealIt)
      if (!opened) onMessage(reason ?? 'The file could not be opened.')
    })
  return (
    <div className="preview-actions" role="toolbar" aria-label="File actions">
      {desktop ? (
        <button type="button" className="ghost-button" onClick={() => void open(false)}>
          <Icon name="open" size={14} /> Open
        </button>
      ) : (
        <button
          type="button"
          className="ghost-button"
          onClick={() => void run(() => workspace.downloadFile(path))}
          aria-label={`Download ${name}`}
        >
          <Icon name="download" size={14} /> Download
        </button>
      )}
      <button
        type="button"
        className="ghost-button"
        onClick={() => {
          if (desktop) void open(true)
          else {
            reveal(path)
            go('workspace')
          }
        }}
        aria-label={desktop ? 'Reveal in folder' : 'Show in the workspace'}
      >
        <Icon name="folder" size={14} /> Reveal
      </button>
      <button type="button" className="ghost-button" onClick={() => copy(path)} aria-label="Copy path">
        <Icon name={copied ? 'check' : 'copy'} size={14} /> {copied ? 'Copied' : 'Copy path'}
      </button>
    </div>
  )
}

function Versions({
  path,
  version,
  onVersion,
  comparing,
  onCompare,
  kind,
  ready,
}: {
  path: string
  version: string
  onVersion: (version: string) => void
  comparing: boolean
  onCompare: (against: string | undefined) => void
  kind: PreviewDescription['kind'] | undefined
  /** The file is described: its versions are asked for after, so they do not slow its first paint. */
  ready: boolean
}) {
  const previewActions = usePreviewActions()
  const queryClient = useQueryClient()
  const versions = usePreviewVersions(path, ready)
  const [confirming, setConfirming] = useState(false)
  const [receipt, setReceipt] = useState<string>()
  const [error, setError] = useState<string>()
  const list = versions.data?.versions ?? []
  const index = list.findIndex((v) => v.version === version)
  const previous = index >= 0 ? list[index + 1] : undefined

  if (list.length <= 1) return null
  const restore = async () => {
    setError(undefined)
    try {
      const result = await previewActions.restore(path, version)
      setReceipt(
        `Restored ${result.path} from version ${result.restoredFrom} (${result.bytes.toLocaleString()} bytes stored).`,
      )
      setConfirming(false)
      onVersion('current')
      await queryClient.invalidateQueries({ queryKey: queryKeys.preview.all() })
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    }
  }
  const date = (iso: string) => new Date(iso).toLocaleString()
  return (
    <div className="preview-versions">
      <label>
        Version{' '}
        <select value={version} onChange={(e) => onVersion(e.target.value)}>
          {list.map((v) => (
            <option key={v.version} value={v.version}>
              {v.source === 'current' ? `Now (${date(v.date)})` : `${date(v.date)} · ${v.label}`}
            </option>
          ))}
        </select>
      </label>
      {kind === 'sheet' && (
        <button
          type="button"
          className="button secondary small"
          aria-pressed={comparing}
          disabled={!previous}
          onClick={() => onCompare(comparing ? undefined : previous?.version)}
        >
          Compare with previous
        </button>
      )}
      {(version.startsWith('h:') || version.startsWith('b:')) &&
        (confirming ? (
          <span className="restore-confirm">
            <span>Restore this version? The file now is kept as a backup.</span>
            <button type="button" className="button small" onClick={() => void restore()}>
              Restore
            </button>
            <button type="button" className="button secondary small" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </span>
        ) : (
          <button type="button" className="button secondary small" onClick={() => setConfirming(true)}>
            Restore this version
          </button>
        ))}
      {receipt && (
        <p className="preview-receipt" role="status">
          {receipt}
        </p>
      )}
      {error && (
        <p className="banner banner-error" role="alert">
          {error}
        </p>
      )}
    </div>
  )
}

/** The preview pane: the file a chip, receipt or the workspace opened, beside the chat or over it. */
export function PreviewPane() {
  const { target, close, width, setWidth } = usePreview()
  const [version, setVersion] = useState('current')
  const [against, setAgainst] = useState<string | undefined>()
  const [comparing, setComparing] = useState(false)
  const [message, setMessage] = useState<string>()
  const headingRef = useRef<HTMLHeadingElement>(null)
  const path = target?.path

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new file starts at its current version
  useEffect(() => {
    setVersion('current')
    setComparing(false)
    setMessage(undefined)
    if (path) headingRef.current?.focus()
  }, [path, target])

  // The run's receipts describe the file as the run left it; the pane opens at the sheet of the first one.
  const description = usePreviewDescription(
    path,
    version,
    version === 'current' ? target?.changes[0]?.sheet : undefined,
  )
  const compare = usePreviewCompare(
    path,
    version,
    against,
    path !== undefined && against !== undefined && description.data?.kind === 'sheet',
  )
  const compared = useMemo(
    () =>
      against && compare.data
        ? new Map(compare.data.sheets.map((s) => [s.sheet, new Set(s.cells)] as const))
        : undefined,
    [against, compare.data],
  )
  const comparedCount = compare.data?.sheets.reduce((n, s) => n + s.cells.length, 0) ?? 0

  if (!target || !path) return null
  const name = path.slice(path.lastIndexOf('/') + 1)

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key === 'Escape' && !e.defaultPrevented) {
      e.preventDefault()
      close()
    }
  }

  const startResize = (e: PointerEvent<HTMLDivElement>) => {
    const startX = e.clientX
    const startWidth = width
    const move = (m: globalThis.PointerEvent) =>
      setWidth(Math.min(window.innerWidth - 360, startWidth + (startX - m.clientX)))
    const up = () => {
      window.removeEventListener('pointermove', move)
      window.removeEventListener('pointerup', up)
    }
    window.addEventListener('pointermove', move)
    window.addEventListener('pointerup', up)
  }
  const onResizeKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? 80 : 20
    if (e.key === 'ArrowLeft') setWidth(Math.min(window.innerWidth - 360, width + step))
    else if (e.key === 'ArrowRight') setWidth(width - step)
    else return
    e.preventDefault()
  }

  return (
    <section
      className="preview-pane"
      aria-labelledby="preview-title"
      style={{ ['--preview-width' as string]: `${width}px` }}
      onKeyDown={onKeyDown}
      data-testid="preview-pane"
    >
      {/* biome-ignore lint/a11y/useSemanticElements: a focusable splitter is the ARIA window-splitter pattern; <hr> cannot take focus */}
      <div
        className="preview-resizer"
        role="separator"
        aria-orientation="vertical"
        aria-label="Resize the preview"
        aria-valuenow={width}
        aria-valuemin={320}
        aria-valuemax={Math.max(320, window.innerWidth - 360)}
        tabIndex={0}
        onPointerDown={startResize}
        onKeyDown={onResizeKey}
      />
      <header className="preview-head">
        <h2 id="preview-title" ref={headingRef} tabIndex={-1}>
          <span className="visually-hidden">Preview: </span>
          {name}
        </h2>
        <button
          type="button"
          className="icon-button"
          onClick={close}
          aria-label="Close the preview"
          title="Close (Esc)"
        >
          <Icon name="close" size={16} />
        </button>
      </header>
      <p className="preview-path muted" title={path}>
        {path}
        {description.data &&
          ` · ${(description.data.size / 1024).toFixed(description.data.size < 10_240 ? 1 : 0)} KB`}
      </p>
      <Actions path={path} onMessage={setMessage} />
      {message && (
        <p className="banner" role="alert">
          {message}
        </p>
      )}
      <Versions
        path={path}
        version={version}
        onVersion={(v) => {
          setVersion(v)
          setComparing(false)
        }}
        comparing={comparing}
        onCompare={(v) => {
          setComparing(v !== undefined)
          setAgainst(v)
        }}
        kind={description.data?.kind}
        ready={!description.isPending}
      />
      {against && compare.data && (
        <p className="preview-compare-note" role="status">
          {comparedCount === 0
            ? 'No cell differs from the previous version.'
            : `${comparedCount}${compare.data.truncated ? '+' : ''} cell${comparedCount === 1 ? '' : 's'} differ from the previous version (outlined).`}
        </p>
      )}
      <div className="preview-body">
        {description.isPending && (
          <p className="muted" role="status">
            Reading {name}…
          </p>
        )}
        {description.isError && (
          <p className="banner banner-error" role="alert">
            {description.error.message}
          </p>
        )}
        {description.data && <Body description={description.data} target={target} compared={compared} />}
      </div>
    </section>
  )
}

export default PreviewPane
